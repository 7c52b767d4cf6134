// The allowlist editor's "test a host" must agree with the proxy that
// enforces the list: every case of the proxy's own host table
// (tests/egress/unit/egress-hosts.tsv) is replayed through the policy's
// rules and test(), with allow-all coming from the egress grant.

#include "policy_fixture.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace arizuko::policy;

namespace {

// Splits a list column as the proxy's flag parser does: comma-separated,
// blanks around entries ignored.
QStringList entries(const QString &column)
{
    QStringList list;
    if (column == "-"_L1)
        return list;
    for (const QString &entry : column.split(u','))
        list << entry.trimmed();
    list.removeAll(QString());
    return list;
}

// One line of the proxy's host table.
struct HostCase
{
    int line = 0;
    QString text;
    QStringList allow;
    QStringList deny;
    QString host;
    bool allowed = false;
};

// Every case of the table; a table that cannot be read ends the test.
QList<HostCase> hostCases()
{
    QList<HostCase> cases;
    QFile table(QStringLiteral(EGRESS_HOSTS_TSV));
    if (!table.open(QIODevice::ReadOnly | QIODevice::Text))
        qFatal("cannot read %s", EGRESS_HOSTS_TSV);
    int line = 0;
    while (!table.atEnd()) {
        ++line;
        const QString text = QString::fromUtf8(table.readLine()).trimmed();
        if (text.isEmpty() || text.startsWith(u'#'))
            continue;
        const QStringList fields = text.split(u'\t');
        if (fields.size() != 4)
            qFatal("%s line %d has %lld fields, expected 4: %s", EGRESS_HOSTS_TSV, line,
                   qlonglong(fields.size()), qPrintable(text));
        // The table names hosts as a request carries them; an IPv6 literal
        // without brackets is a malformed request there (the proxy's own
        // parser test covers it), not a host decision the policy makes: no
        // case of either test here, so never counted as a deny.
        if (fields[2].contains(u':') && !fields[2].startsWith(u'['))
            continue;
        cases.append({line, text, entries(fields[0]), entries(fields[1]), fields[2],
                      fields[3] == "allow"_L1});
    }
    return cases;
}

// The entries and hosts of the table the policy refuses to parse, written
// out: a policy that refused more would otherwise "deny" by refusing, and
// its cases would pass as denies. Each is checked to be refused below.
const QStringList refusedEntries{u"0.0.1"_s, u"0.1"_s};
const QStringList refusedHosts{u"github.com.."_s, u".github.com"_s,   u"api..github.com"_s,
                               u"127.1"_s,        u"0x7f.0.0.1"_s,    u"1.2.3.4.5"_s,
                               u"256.1.1.1"_s,    u"2130706433"_s,    u"[fe80::1%25eth0]"_s,
                               u"bad!name.com"_s, u"space name.com"_s};

// What of the case is on those lists: an entry ("allow X"/"deny X") or the
// requested host; empty for a case the policy must decide.
QStringList refusedByThePolicy(const HostCase &hostCase)
{
    QStringList refused;
    for (const QString &entry : hostCase.allow) {
        if (refusedEntries.contains(entry))
            refused << "allow entry '"_L1 + entry + u'\'';
    }
    for (const QString &entry : hostCase.deny) {
        if (refusedEntries.contains(entry))
            refused << "deny entry '"_L1 + entry + u'\'';
    }
    if (refusedHosts.contains(hostCase.host))
        refused << "host '"_L1 + hostCase.host + u'\'';
    return refused;
}

} // namespace

class EgressConformanceTest : public QObject
{
    Q_OBJECT

private slots:
    // The cases whose entries and host the policy parses: its test() must
    // reach the proxy's decision through its rules. A deny counts only as
    // the policy's own decision (a deny rule that matched, or no rule that
    // allows), never as an entry or host it refused.
    void policyDecidesLikeTheProxy_data()
    {
        QTest::addColumn<QStringList>("allow");
        QTest::addColumn<QStringList>("deny");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("allowed");
        for (const HostCase &hostCase : hostCases()) {
            if (refusedByThePolicy(hostCase).isEmpty())
                QTest::addRow("line %d: %s", hostCase.line, qPrintable(hostCase.text))
                    << hostCase.allow << hostCase.deny << hostCase.host << hostCase.allowed;
        }
    }

    void policyDecidesLikeTheProxy()
    {
        QFETCH(QStringList, allow);
        QFETCH(QStringList, deny);
        QFETCH(QString, host);
        QFETCH(bool, allowed);

        PolicyFixture fixture;
        const QString folder = QStringLiteral("team");
        fixture.addFolder(folder);
        NetworkRules &rules = fixture.policy().network();
        for (const QString &entry : allow) {
            if (entry == "ALL"_L1) {
                QVERIFY(
                    fixture.grants()
                        .add(row(folder, QStringLiteral("egress"), folder), QStringLiteral("test"))
                        .ok());
                continue;
            }
            const auto added = rules.add(folder, entry, RuleKind::Allow, QStringLiteral("test"));
            QVERIFY2(added.ok(), qPrintable(added.ok() ? QString() : added.error().message));
        }
        for (const QString &entry : deny) {
            const auto added = rules.add(folder, entry, RuleKind::Deny, QStringLiteral("test"));
            QVERIFY2(added.ok(), qPrintable(added.ok() ? QString() : added.error().message));
        }

        const auto verdict = rules.test(folder, host);
        QVERIFY2(verdict.ok(), qPrintable(verdict.ok() ? QString() : verdict.error().message));
        QVERIFY2(verdict->allowed == allowed, qPrintable(verdict->reason));
        if (!allowed) {
            // Denied by a parsed deny rule, or because no parsed rule allows.
            if (verdict->decidingRule)
                QCOMPARE(verdict->decidingRule->kind, RuleKind::Deny);
            else
                QVERIFY2(verdict->reason.startsWith("no rule of "_L1), qPrintable(verdict->reason));
            QVERIFY(!verdict->egressGrant);
        }
    }

    // The cases naming an entry or host the policy refuses to parse: the
    // editor refuses it with an error naming it, so it never reaches a proxy,
    // and the proxy does not let such a host through either. None of them is
    // counted as a deny above.
    void whatThePolicyRefusesNeverReachesAProxy_data()
    {
        QTest::addColumn<QStringList>("allow");
        QTest::addColumn<QStringList>("deny");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("allowed");
        for (const HostCase &hostCase : hostCases()) {
            const QStringList refused = refusedByThePolicy(hostCase);
            if (!refused.isEmpty())
                QTest::addRow("line %d: %s (refused: %s)", hostCase.line, qPrintable(hostCase.text),
                              qPrintable(refused.join(", "_L1)))
                    << hostCase.allow << hostCase.deny << hostCase.host << hostCase.allowed;
        }
    }

    void whatThePolicyRefusesNeverReachesAProxy()
    {
        QFETCH(QStringList, allow);
        QFETCH(QStringList, deny);
        QFETCH(QString, host);
        QFETCH(bool, allowed);

        PolicyFixture fixture;
        const QString folder = QStringLiteral("team");
        fixture.addFolder(folder);
        NetworkRules &rules = fixture.policy().network();
        const auto refusedIfListed = [&](const QString &entry, RuleKind kind) {
            const auto added = rules.add(folder, entry, kind, QStringLiteral("test"));
            if (refusedEntries.contains(entry)) {
                QVERIFY2(!added.ok(), qPrintable(entry));
                QVERIFY2(!added.error().message.isEmpty(), qPrintable(entry));
            }
        };
        for (const QString &entry : allow) {
            if (entry != "ALL"_L1)
                refusedIfListed(entry, RuleKind::Allow);
        }
        for (const QString &entry : deny)
            refusedIfListed(entry, RuleKind::Deny);
        if (refusedHosts.contains(host)) {
            const auto verdict = rules.test(folder, host);
            QVERIFY2(!verdict.ok(), qPrintable(host));
            QVERIFY2(!verdict.error().message.isEmpty(), qPrintable(host));
        }
        // The proxy lets none of these through: a refused allow entry or a
        // malformed host never opens anything.
        QVERIFY2(!allowed, "an allow the policy cannot express");
    }
};

QTEST_GUILESS_MAIN(EgressConformanceTest)
#include "test_egress_conformance.moc"
