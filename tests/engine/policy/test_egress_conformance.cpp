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

} // namespace

class EgressConformanceTest : public QObject
{
    Q_OBJECT

private slots:
    void policyDecidesLikeTheProxy_data()
    {
        QTest::addColumn<QStringList>("allow");
        QTest::addColumn<QStringList>("deny");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("allowed");

        QFile table(QStringLiteral(EGRESS_HOSTS_TSV));
        QVERIFY2(table.open(QIODevice::ReadOnly | QIODevice::Text), EGRESS_HOSTS_TSV);
        int line = 0;
        while (!table.atEnd()) {
            ++line;
            const QString text = QString::fromUtf8(table.readLine()).trimmed();
            if (text.isEmpty() || text.startsWith(u'#'))
                continue;
            const QStringList fields = text.split(u'\t');
            QVERIFY2(fields.size() == 4,
                     qPrintable(QStringLiteral("line %1: %2").arg(line).arg(text)));
            // The table names hosts as a request carries them; an IPv6 literal
            // without brackets is a malformed request there (the proxy's own
            // parser test covers it), not a host decision the policy makes.
            if (fields[2].contains(u':') && !fields[2].startsWith(u'['))
                continue;
            QTest::addRow("line %d: %s", line, qPrintable(text))
                << entries(fields[0]) << entries(fields[1]) << fields[2]
                << (fields[3] == "allow"_L1);
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
        // The policy validates entries more strictly than the proxy parses
        // its flags (no stray spaces, no empty or partial entries): an entry
        // it refuses never reaches a proxy, so the case is judged without it.
        for (const QString &entry : allow) {
            if (entry == "ALL"_L1)
                QVERIFY(
                    fixture.grants()
                        .add(row(folder, QStringLiteral("egress"), folder), QStringLiteral("test"))
                        .ok());
            else if (!rules.add(folder, entry, RuleKind::Allow, QStringLiteral("test")).ok())
                qInfo("policy refuses allow entry '%s'", qPrintable(entry));
        }
        for (const QString &entry : deny) {
            if (!rules.add(folder, entry, RuleKind::Deny, QStringLiteral("test")).ok())
                qInfo("policy refuses deny entry '%s'", qPrintable(entry));
        }

        // A host the policy cannot even parse is one the proxy refuses too.
        const auto verdict = rules.test(folder, host);
        const bool policyAllows = verdict.ok() && verdict->allowed;
        QCOMPARE(policyAllows, allowed);
    }
};

QTEST_GUILESS_MAIN(EgressConformanceTest)
#include "test_egress_conformance.moc"
