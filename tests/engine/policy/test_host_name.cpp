// Network rule targets: what is accepted and how it is stored (IDN as punycode,
// `*.x` as x, IP literals canonical), what is refused and with which hint, and
// host matching that agrees with arizuko-egress (docs/egress.md).

#include "policy/host_name.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace arizuko::policy;

class HostNameTest : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data();
    void accepted();
    void refused_data();
    void refused();
    void requestHostRefusesWildcard();
    void matching_data();
    void matching();
};

void HostNameTest::accepted_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("stored");

    QTest::newRow("plain name") << u"github.com"_s << u"github.com"_s;
    QTest::newRow("upper case folded") << u"GitHub.COM"_s << u"github.com"_s;
    QTest::newRow("trailing dot dropped") << u"github.com."_s << u"github.com"_s;
    QTest::newRow("leading *. stripped") << u"*.example.com"_s << u"example.com"_s;
    QTest::newRow("dotless name") << u"localhost"_s << u"localhost"_s;
    QTest::newRow("hyphen and digits") << u"a-1.example-2.org"_s << u"a-1.example-2.org"_s;
    QTest::newRow("IDN as punycode") << u"bücher.de"_s << u"xn--bcher-kva.de"_s;
    QTest::newRow("IDN upper case") << u"BÜCHER.de"_s << u"xn--bcher-kva.de"_s;
    QTest::newRow("IDN with wildcard") << u"*.münchen.de"_s << u"xn--mnchen-3ya.de"_s;
    QTest::newRow("IDN already punycode") << u"xn--bcher-kva.de"_s << u"xn--bcher-kva.de"_s;
    QTest::newRow("IDN non-latin") << u"пример.рф"_s << u"xn--e1afmkfd.xn--p1ai"_s;
    QTest::newRow("IPv4") << u"203.0.113.7"_s << u"203.0.113.7"_s;
    QTest::newRow("IPv6") << u"2001:DB8::1"_s << u"2001:db8::1"_s;
    QTest::newRow("IPv6 expanded")
        << u"2001:0db8:0000:0000:0000:0000:0000:0001"_s << u"2001:db8::1"_s;
    QTest::newRow("IPv6 bracketed") << u"[::1]"_s << u"::1"_s;
}

void HostNameTest::accepted()
{
    QFETCH(QString, input);
    QFETCH(QString, stored);
    const auto result = normalizeRuleTarget(input);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
    QCOMPARE(*result, stored);
}

void HostNameTest::refused_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("hint"); // a suggestion the message must carry, if any

    QTest::newRow("empty") << u""_s << u"is empty"_s << QString();
    QTest::newRow("URL") << u"https://github.com/org/repo"_s << u"is a URL"_s << u"'github.com'"_s;
    QTest::newRow("URL with port")
        << u"http://example.org:8080/"_s << u"is a URL"_s << u"'example.org'"_s;
    QTest::newRow("path") << u"github.com/org"_s << u"contains a path"_s << u"'github.com'"_s;
    QTest::newRow("port") << u"github.com:443"_s << u"carries a port"_s << u"'github.com'"_s;
    QTest::newRow("IPv4 with port")
        << u"203.0.113.7:80"_s << u"carries a port"_s << u"'203.0.113.7'"_s;
    QTest::newRow("bracketed IPv6 with port")
        << u"[::1]:443"_s << u"carries a port"_s << u"'::1'"_s;
    QTest::newRow("space inside") << u"git hub.com"_s << u"contains a space"_s << QString();
    QTest::newRow("leading space")
        << u" github.com"_s << u"contains a space"_s << u"'github.com'"_s;
    QTest::newRow("tab") << u"github.com\t"_s << u"contains a space"_s << QString();
    QTest::newRow("bare star") << u"*"_s << u"egress grant"_s << QString();
    QTest::newRow("star inside") << u"git*.com"_s << u"not a leading '*.'"_s << QString();
    QTest::newRow("star without dot") << u"*github.com"_s << u"not a leading '*.'"_s << QString();
    QTest::newRow("double wildcard") << u"*.*.com"_s << u"not a leading '*.'"_s << QString();
    QTest::newRow("only *.") << u"*."_s << u"empty label"_s << QString();
    QTest::newRow("leading dot") << u".github.com"_s << u"empty label"_s << QString();
    QTest::newRow("double dot") << u"github..com"_s << u"empty label"_s << QString();
    QTest::newRow("bad character") << u"git!hub.com"_s << u"cannot hold"_s << QString();
    QTest::newRow("label starts with hyphen") << u"-github.com"_s << u"cannot hold"_s << QString();
    QTest::newRow("label too long")
        << QString(64, u'a') + u".com"_s << u"longer than 63"_s << QString();
    QTest::newRow("name too long")
        << QStringList(64, u"abc"_s).join(u'.') << u"longer than 253"_s << QString();
    QTest::newRow("three-part number") << u"1.2.3"_s << u"valid IPv4"_s << QString();
    QTest::newRow("octet over 255") << u"256.1.1.1"_s << u"valid IPv4"_s << QString();
    QTest::newRow("leading zero octet") << u"010.0.0.1"_s << u"valid IPv4"_s << QString();
    QTest::newRow("IPv6 with zone") << u"fe80::1%eth0"_s << u"valid IPv6"_s << QString();
    QTest::newRow("hex address notation")
        << u"0x7f.0.0.1"_s << u"numeric notation"_s << QString();
    QTest::newRow("numeric last label") << u"example.123"_s << u"numeric notation"_s << QString();
    QTest::newRow("hex last label") << u"example.0x1f"_s << u"numeric notation"_s << QString();
    QTest::newRow("garbage colons") << u"a:b:c"_s << u"valid IPv6"_s << QString();
    QTest::newRow("unclosed bracket") << u"[::1"_s << u"unclosed"_s << QString();
}

void HostNameTest::refused()
{
    QFETCH(QString, input);
    QFETCH(QString, problem);
    QFETCH(QString, hint);
    const auto result = normalizeRuleTarget(input);
    QVERIFY2(!result.ok(), qPrintable(u"accepted as "_s + (result.ok() ? *result : QString())));
    const QString message = result.error().message;
    QCOMPARE(result.error().code, u"policy.bad-host"_s);
    QVERIFY2(message.contains(problem), qPrintable(message));
    // Every refusal shows the accepted form.
    QVERIFY2(message.contains(u"e.g. github.com"_s), qPrintable(message));
    if (!hint.isEmpty())
        QVERIFY2(message.contains(u"did you mean "_s + hint), qPrintable(message));
}

void HostNameTest::requestHostRefusesWildcard()
{
    QVERIFY(!normalizeRequestHost(u"*.github.com"_s).ok());
    QCOMPARE(*normalizeRequestHost(u"API.GitHub.com."_s), u"api.github.com"_s);
    QCOMPARE(*normalizeRequestHost(u"[2001:db8::1]"_s), u"2001:db8::1"_s);
}

void HostNameTest::matching_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("expected");

    // The egress proxy's rules (docs/egress.md), on normalised input.
    QTest::newRow("itself") << u"github.com"_s << u"github.com"_s << true;
    QTest::newRow("subdomain") << u"github.com"_s << u"api.github.com"_s << true;
    QTest::newRow("deep subdomain") << u"github.com"_s << u"a.b.github.com"_s << true;
    QTest::newRow("not a suffix lookalike") << u"github.com"_s << u"evilgithub.com"_s << false;
    QTest::newRow("not the parent") << u"api.github.com"_s << u"github.com"_s << false;
    QTest::newRow("shorter rule not a label") << u"hub.com"_s << u"github.com"_s << false;
    QTest::newRow("dotless: itself") << u"localhost"_s << u"localhost"_s << true;
    QTest::newRow("dotless: no subdomains") << u"localhost"_s << u"a.localhost"_s << false;
    QTest::newRow("dotless TLD covers nothing") << u"com"_s << u"github.com"_s << false;
    QTest::newRow("IPv4 exact") << u"203.0.113.7"_s << u"203.0.113.7"_s << true;
    QTest::newRow("IPv4 other") << u"203.0.113.7"_s << u"203.0.113.8"_s << false;
    QTest::newRow("IPv4 no suffix rule") << u"0.113.7"_s << u"203.0.113.7"_s << false;
    QTest::newRow("IPv6 exact") << u"::1"_s << u"::1"_s << true;
    QTest::newRow("IPv6 other") << u"::1"_s << u"::2"_s << false;
    QTest::newRow("name rule, IP host") << u"example.com"_s << u"203.0.113.7"_s << false;
}

void HostNameTest::matching()
{
    QFETCH(QString, rule);
    QFETCH(QString, host);
    QFETCH(bool, expected);
    QCOMPARE(ruleMatchesHost(rule, host), expected);
}

QTEST_APPLESS_MAIN(HostNameTest)
#include "test_host_name.moc"
