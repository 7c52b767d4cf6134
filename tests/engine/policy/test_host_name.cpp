// Network rule targets: what is accepted and how it is stored (IDN as punycode,
// `*.x` as x, IP literals canonical), what is refused and with which hint, and
// host matching that agrees with arizuko-egress (docs/egress.md).

#include "policy/host_name.h"

#include <QTest>

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

    QTest::newRow("plain name") << QStringLiteral("github.com") << QStringLiteral("github.com");
    QTest::newRow("upper case folded")
        << QStringLiteral("GitHub.COM") << QStringLiteral("github.com");
    QTest::newRow("trailing dot dropped")
        << QStringLiteral("github.com.") << QStringLiteral("github.com");
    QTest::newRow("leading *. stripped")
        << QStringLiteral("*.example.com") << QStringLiteral("example.com");
    QTest::newRow("dotless name") << QStringLiteral("localhost") << QStringLiteral("localhost");
    QTest::newRow("hyphen and digits")
        << QStringLiteral("a-1.example-2.org") << QStringLiteral("a-1.example-2.org");
    QTest::newRow("IDN as punycode")
        << QStringLiteral("bücher.de") << QStringLiteral("xn--bcher-kva.de");
    QTest::newRow("IDN upper case")
        << QStringLiteral("BÜCHER.de") << QStringLiteral("xn--bcher-kva.de");
    QTest::newRow("IDN with wildcard")
        << QStringLiteral("*.münchen.de") << QStringLiteral("xn--mnchen-3ya.de");
    QTest::newRow("IDN already punycode")
        << QStringLiteral("xn--bcher-kva.de") << QStringLiteral("xn--bcher-kva.de");
    QTest::newRow("IDN non-latin")
        << QStringLiteral("пример.рф") << QStringLiteral("xn--e1afmkfd.xn--p1ai");
    QTest::newRow("IPv4") << QStringLiteral("203.0.113.7") << QStringLiteral("203.0.113.7");
    QTest::newRow("IPv6") << QStringLiteral("2001:DB8::1") << QStringLiteral("2001:db8::1");
    QTest::newRow("IPv6 expanded") << QStringLiteral("2001:0db8:0000:0000:0000:0000:0000:0001")
                                   << QStringLiteral("2001:db8::1");
    QTest::newRow("IPv6 bracketed") << QStringLiteral("[::1]") << QStringLiteral("::1");
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

    QTest::newRow("empty") << QStringLiteral("") << QStringLiteral("is empty") << QString();
    QTest::newRow("URL") << QStringLiteral("https://github.com/org/repo")
                         << QStringLiteral("is a URL") << QStringLiteral("'github.com'");
    QTest::newRow("URL with port") << QStringLiteral("http://example.org:8080/")
                                   << QStringLiteral("is a URL") << QStringLiteral("'example.org'");
    QTest::newRow("path") << QStringLiteral("github.com/org") << QStringLiteral("contains a path")
                          << QStringLiteral("'github.com'");
    QTest::newRow("port") << QStringLiteral("github.com:443") << QStringLiteral("carries a port")
                          << QStringLiteral("'github.com'");
    QTest::newRow("IPv4 with port")
        << QStringLiteral("203.0.113.7:80") << QStringLiteral("carries a port")
        << QStringLiteral("'203.0.113.7'");
    QTest::newRow("bracketed IPv6 with port")
        << QStringLiteral("[::1]:443") << QStringLiteral("carries a port")
        << QStringLiteral("'::1'");
    QTest::newRow("space inside") << QStringLiteral("git hub.com")
                                  << QStringLiteral("contains a space") << QString();
    QTest::newRow("leading space")
        << QStringLiteral(" github.com") << QStringLiteral("contains a space")
        << QStringLiteral("'github.com'");
    QTest::newRow("tab") << QStringLiteral("github.com\t") << QStringLiteral("contains a space")
                         << QString();
    QTest::newRow("bare star") << QStringLiteral("*") << QStringLiteral("egress grant")
                               << QString();
    QTest::newRow("star inside") << QStringLiteral("git*.com")
                                 << QStringLiteral("not a leading '*.'") << QString();
    QTest::newRow("star without dot")
        << QStringLiteral("*github.com") << QStringLiteral("not a leading '*.'") << QString();
    QTest::newRow("double wildcard")
        << QStringLiteral("*.*.com") << QStringLiteral("not a leading '*.'") << QString();
    QTest::newRow("only *.") << QStringLiteral("*.") << QStringLiteral("empty label") << QString();
    QTest::newRow("leading dot") << QStringLiteral(".github.com") << QStringLiteral("empty label")
                                 << QString();
    QTest::newRow("double dot") << QStringLiteral("github..com") << QStringLiteral("empty label")
                                << QString();
    QTest::newRow("bad character")
        << QStringLiteral("git!hub.com") << QStringLiteral("cannot hold") << QString();
    QTest::newRow("label starts with hyphen")
        << QStringLiteral("-github.com") << QStringLiteral("cannot hold") << QString();
    QTest::newRow("label too long") << QString(64, u'a') + QStringLiteral(".com")
                                    << QStringLiteral("longer than 63") << QString();
    QTest::newRow("name too long") << QStringList(64, QStringLiteral("abc")).join(u'.')
                                   << QStringLiteral("longer than 253") << QString();
    QTest::newRow("three-part number")
        << QStringLiteral("1.2.3") << QStringLiteral("valid IPv4") << QString();
    QTest::newRow("octet over 255")
        << QStringLiteral("256.1.1.1") << QStringLiteral("valid IPv4") << QString();
    QTest::newRow("leading zero octet")
        << QStringLiteral("010.0.0.1") << QStringLiteral("valid IPv4") << QString();
    QTest::newRow("IPv6 with zone")
        << QStringLiteral("fe80::1%eth0") << QStringLiteral("valid IPv6") << QString();
    QTest::newRow("hex address notation")
        << QStringLiteral("0x7f.0.0.1") << QStringLiteral("numeric notation") << QString();
    QTest::newRow("numeric last label")
        << QStringLiteral("example.123") << QStringLiteral("numeric notation") << QString();
    QTest::newRow("hex last label")
        << QStringLiteral("example.0x1f") << QStringLiteral("numeric notation") << QString();
    QTest::newRow("garbage colons")
        << QStringLiteral("a:b:c") << QStringLiteral("valid IPv6") << QString();
    QTest::newRow("unclosed bracket")
        << QStringLiteral("[::1") << QStringLiteral("unclosed") << QString();
}

void HostNameTest::refused()
{
    QFETCH(QString, input);
    QFETCH(QString, problem);
    QFETCH(QString, hint);
    const auto result = normalizeRuleTarget(input);
    QVERIFY2(!result.ok(),
             qPrintable(QStringLiteral("accepted as ") + (result.ok() ? *result : QString())));
    const QString message = result.error().message;
    QCOMPARE(result.error().code, QStringLiteral("policy.bad-host"));
    QVERIFY2(message.contains(problem), qPrintable(message));
    // Every refusal shows the accepted form.
    QVERIFY2(message.contains(QStringLiteral("e.g. github.com")), qPrintable(message));
    if (!hint.isEmpty())
        QVERIFY2(message.contains(QStringLiteral("did you mean ") + hint), qPrintable(message));
}

void HostNameTest::requestHostRefusesWildcard()
{
    QVERIFY(!normalizeRequestHost(QStringLiteral("*.github.com")).ok());
    QCOMPARE(*normalizeRequestHost(QStringLiteral("API.GitHub.com.")),
             QStringLiteral("api.github.com"));
    QCOMPARE(*normalizeRequestHost(QStringLiteral("[2001:db8::1]")), QStringLiteral("2001:db8::1"));
}

void HostNameTest::matching_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("expected");

    // The egress proxy's rules (docs/egress.md), on normalised input.
    QTest::newRow("itself") << QStringLiteral("github.com") << QStringLiteral("github.com") << true;
    QTest::newRow("subdomain") << QStringLiteral("github.com") << QStringLiteral("api.github.com")
                               << true;
    QTest::newRow("deep subdomain")
        << QStringLiteral("github.com") << QStringLiteral("a.b.github.com") << true;
    QTest::newRow("not a suffix lookalike")
        << QStringLiteral("github.com") << QStringLiteral("evilgithub.com") << false;
    QTest::newRow("not the parent")
        << QStringLiteral("api.github.com") << QStringLiteral("github.com") << false;
    QTest::newRow("shorter rule not a label")
        << QStringLiteral("hub.com") << QStringLiteral("github.com") << false;
    QTest::newRow("dotless: itself")
        << QStringLiteral("localhost") << QStringLiteral("localhost") << true;
    QTest::newRow("dotless: no subdomains")
        << QStringLiteral("localhost") << QStringLiteral("a.localhost") << false;
    QTest::newRow("dotless TLD covers nothing")
        << QStringLiteral("com") << QStringLiteral("github.com") << false;
    QTest::newRow("IPv4 exact") << QStringLiteral("203.0.113.7") << QStringLiteral("203.0.113.7")
                                << true;
    QTest::newRow("IPv4 other") << QStringLiteral("203.0.113.7") << QStringLiteral("203.0.113.8")
                                << false;
    QTest::newRow("IPv4 no suffix rule")
        << QStringLiteral("0.113.7") << QStringLiteral("203.0.113.7") << false;
    QTest::newRow("IPv6 exact") << QStringLiteral("::1") << QStringLiteral("::1") << true;
    QTest::newRow("IPv6 other") << QStringLiteral("::1") << QStringLiteral("::2") << false;
    QTest::newRow("name rule, IP host")
        << QStringLiteral("example.com") << QStringLiteral("203.0.113.7") << false;
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
