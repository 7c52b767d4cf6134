// Network rules against a real store: inheritance down '' -> a -> a/b,
// deduplication, allow-all only from the egress grant, and test() naming the
// rule and folder that decided, with the egress proxy's matching.

#include "policy_fixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace arizuko::policy;

namespace {

void addRule(NetworkRules &rules, const QString &folder, const QString &host, RuleKind kind)
{
    const auto added = rules.add(folder, host, kind, u"test"_s);
    if (!added)
        qFatal("cannot add rule: %s", qPrintable(added.error().message));
}

// The tree most cases share: '' allows pypi.org; corp allows github.com and
// denies gist.github.com; corp/eng repeats github.com, allows *.npmjs.org and
// denies evil.com; corp/eng/sre allows 203.0.113.7; other allows other.org.
void buildTree(PolicyFixture &fixture)
{
    for (const QString &folder : {u"corp"_s, u"corp/eng"_s, u"corp/eng/sre"_s, u"other"_s})
        fixture.addFolder(folder);
    NetworkRules &rules = fixture.policy().network();
    addRule(rules, u""_s, u"pypi.org"_s, RuleKind::Allow);
    addRule(rules, u"corp"_s, u"github.com"_s, RuleKind::Allow);
    addRule(rules, u"corp"_s, u"gist.github.com"_s, RuleKind::Deny);
    addRule(rules, u"corp/eng"_s, u"GitHub.com"_s, RuleKind::Allow);
    addRule(rules, u"corp/eng"_s, u"*.npmjs.org"_s, RuleKind::Allow);
    addRule(rules, u"corp/eng"_s, u"evil.com"_s, RuleKind::Deny);
    addRule(rules, u"corp/eng/sre"_s, u"203.0.113.7"_s, RuleKind::Allow);
    addRule(rules, u"other"_s, u"other.org"_s, RuleKind::Allow);
}

} // namespace

class NetworkRulesTest : public QObject
{
    Q_OBJECT

private slots:
    void resolveAlongAncestry_data();
    void resolveAlongAncestry();
    void resolveNamesOrigins();
    void allowAllOnlyFromEgressGrant();
    void testNamesDecidingRule_data();
    void testNamesDecidingRule();
    void testRefusesBadHost();
    void addValidatesAndNormalises();
    void removeOwnRules();
    void baseFolderAsNullString();
    void otherConnectionsChangesAreSeen();
};

void NetworkRulesTest::resolveAlongAncestry_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QStringList>("allow");
    QTest::addColumn<QStringList>("deny");
    QTest::newRow("base") << u""_s << QStringList{u"pypi.org"_s} << QStringList{};
    QTest::newRow("top") << u"corp"_s << QStringList{u"pypi.org"_s, u"github.com"_s}
                         << QStringList{u"gist.github.com"_s};
    QTest::newRow("child dedups") << u"corp/eng"_s
                                  << QStringList{u"pypi.org"_s, u"github.com"_s, u"npmjs.org"_s}
                                  << QStringList{u"gist.github.com"_s, u"evil.com"_s};
    QTest::newRow("grandchild") << u"corp/eng/sre"_s
                                << QStringList{u"pypi.org"_s, u"github.com"_s, u"npmjs.org"_s,
                                               u"203.0.113.7"_s}
                                << QStringList{u"gist.github.com"_s, u"evil.com"_s};
    QTest::newRow("folder without own rules")
        << u"corp/eng/sre/bot"_s
        << QStringList{u"pypi.org"_s, u"github.com"_s, u"npmjs.org"_s, u"203.0.113.7"_s}
        << QStringList{u"gist.github.com"_s, u"evil.com"_s};
    QTest::newRow("sibling tree not inherited")
        << u"other"_s << QStringList{u"pypi.org"_s, u"other.org"_s} << QStringList{};
    QTest::newRow("name prefix is no ancestor")
        << u"corporate"_s << QStringList{u"pypi.org"_s} << QStringList{};
}

void NetworkRulesTest::resolveAlongAncestry()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, allow);
    QFETCH(QStringList, deny);
    PolicyFixture fixture;
    buildTree(fixture);
    const auto policy = fixture.policy().network().resolve(folder);
    QVERIFY(policy.ok());
    QCOMPARE(policy->allow, allow);
    QCOMPARE(policy->deny, deny);
    QVERIFY(!policy->allowAll);
}

void NetworkRulesTest::resolveNamesOrigins()
{
    PolicyFixture fixture;
    buildTree(fixture);
    const auto policy = fixture.policy().network().resolve(u"corp/eng"_s);
    QStringList origins;
    for (const NetworkRule &rule : policy->rules)
        origins << rule.folder + u':' + ruleKindName(rule.kind) + u':' + rule.target;
    QCOMPARE(origins, (QStringList{u":allow:pypi.org"_s, u"corp:allow:github.com"_s,
                                   u"corp:deny:gist.github.com"_s, u"corp/eng:allow:github.com"_s,
                                   u"corp/eng:allow:npmjs.org"_s, u"corp/eng:deny:evil.com"_s}));
}

void NetworkRulesTest::allowAllOnlyFromEgressGrant()
{
    PolicyFixture fixture;
    buildTree(fixture);
    Grants &grants = fixture.grants();
    NetworkRules &network = fixture.policy().network();
    QVERIFY(!network.resolve(u"corp/eng"_s)->allowAll);
    // admin does not imply egress; a grant on another principal does not count.
    QVERIFY(grants.add(row(u"corp/eng"_s, u"admin"_s, u"**"_s), u"t"_s).ok());
    QVERIFY(grants.add(row(u"corp"_s, u"egress"_s, u"corp/**"_s), u"t"_s).ok());
    QVERIFY(!network.resolve(u"corp/eng"_s)->allowAll);
    QVERIFY(network.resolve(u"corp"_s)->allowAll);
    const auto grant = grants.add(row(u"corp/eng"_s, u"egress"_s, u"corp/eng"_s), u"t"_s);
    const auto policy = network.resolve(u"corp/eng"_s);
    QVERIFY(policy->allowAll);
    QCOMPARE(policy->egressGrant->id, grant->id);
    // Allow-all still loses to every deny, and says which grant allowed.
    const auto denied = network.test(u"corp/eng"_s, u"api.evil.com"_s);
    QVERIFY(!denied->allowed);
    const auto anyHost = network.test(u"corp/eng"_s, u"example.net"_s);
    QVERIFY(anyHost->allowed);
    QVERIFY(!anyHost->decidingRule);
    QCOMPARE(anyHost->egressGrant->id, grant->id);
    QVERIFY(anyHost->reason.contains(u"egress grant"_s));
    // A deny on the egress grant takes allow-all away again.
    QVERIFY(grants.add(row(u"corp/eng"_s, u"egress"_s, u"**"_s, Effect::Deny), u"t"_s).ok());
    QVERIFY(!network.resolve(u"corp/eng"_s)->allowAll);
}

void NetworkRulesTest::testNamesDecidingRule_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<QString>("ruleFolder"); // null: no rule decided
    QTest::addColumn<QString>("ruleTarget");
    QTest::newRow("inherited from base")
        << u"corp/eng"_s << u"pypi.org"_s << true << u""_s << u"pypi.org"_s;
    QTest::newRow("subdomain, nearest rule")
        << u"corp/eng"_s << u"api.github.com"_s << true << u"corp/eng"_s << u"github.com"_s;
    QTest::newRow("inherited deny beats own allow")
        << u"corp/eng"_s << u"gist.github.com"_s << false << u"corp"_s << u"gist.github.com"_s;
    QTest::newRow("deny covers subdomains") << u"corp/eng/sre"_s << u"x.gist.github.com"_s << false
                                            << u"corp"_s << u"gist.github.com"_s;
    QTest::newRow("own deny") << u"corp/eng"_s << u"evil.com"_s << false << u"corp/eng"_s
                              << u"evil.com"_s;
    QTest::newRow("wildcard rule stored as base")
        << u"corp/eng"_s << u"registry.npmjs.org"_s << true << u"corp/eng"_s << u"npmjs.org"_s;
    QTest::newRow("suffix lookalike")
        << u"corp/eng"_s << u"evilgithub.com"_s << false << QString() << QString();
    QTest::newRow("child rule not seen by parent")
        << u"corp"_s << u"registry.npmjs.org"_s << false << QString() << QString();
    QTest::newRow("IP literal exact")
        << u"corp/eng/sre"_s << u"203.0.113.7"_s << true << u"corp/eng/sre"_s << u"203.0.113.7"_s;
    QTest::newRow("IP literal other")
        << u"corp/eng/sre"_s << u"203.0.113.8"_s << false << QString() << QString();
    QTest::newRow("case and trailing dot")
        << u"corp"_s << u"API.GitHub.COM."_s << true << u"corp"_s << u"github.com"_s;
    QTest::newRow("no rule at all")
        << u"other"_s << u"github.com"_s << false << QString() << QString();
}

void NetworkRulesTest::testNamesDecidingRule()
{
    QFETCH(QString, folder);
    QFETCH(QString, host);
    QFETCH(bool, allowed);
    QFETCH(QString, ruleFolder);
    QFETCH(QString, ruleTarget);
    PolicyFixture fixture;
    buildTree(fixture);
    const auto verdict = fixture.policy().network().test(folder, host);
    QVERIFY(verdict.ok());
    QCOMPARE(verdict->allowed, allowed);
    if (ruleFolder.isNull()) {
        QVERIFY(!verdict->decidingRule);
        QVERIFY2(verdict->reason.contains(u"no rule"_s), qPrintable(verdict->reason));
    } else {
        QVERIFY(verdict->decidingRule);
        QCOMPARE(verdict->decidingRule->folder, ruleFolder);
        QCOMPARE(verdict->decidingRule->target, ruleTarget);
        QVERIFY2(verdict->reason.contains(ruleTarget), qPrintable(verdict->reason));
    }
}

void NetworkRulesTest::testRefusesBadHost()
{
    PolicyFixture fixture;
    const auto verdict = fixture.policy().network().test(u""_s, u"https://github.com/x"_s);
    QVERIFY(!verdict.ok());
    QCOMPARE(verdict.error().code, u"policy.bad-host"_s);
}

void NetworkRulesTest::addValidatesAndNormalises()
{
    PolicyFixture fixture;
    fixture.addFolder(u"corp"_s);
    NetworkRules &network = fixture.policy().network();
    const auto idn = network.add(u"corp"_s, u"*.Bücher.de"_s, RuleKind::Allow, u"alice"_s);
    QVERIFY(idn.ok());
    QVERIFY(idn->created);
    QCOMPARE(idn->rule.target, u"xn--bcher-kva.de"_s);
    QCOMPARE(idn->rule.createdBy, u"alice"_s);
    const auto again = network.add(u"corp"_s, u"xn--bcher-kva.de"_s, RuleKind::Allow, u"bob"_s);
    QVERIFY(again.ok());
    QVERIFY(!again->created);
    QCOMPARE(again->rule.id, idn->rule.id);
    for (const QString &bad :
         {u"https://x.org"_s, u"x.org:443"_s, u"*"_s, u"x .org"_s, u"x.org/path"_s}) {
        const auto refused = network.add(u"corp"_s, bad, RuleKind::Allow, u"alice"_s);
        QVERIFY2(!refused.ok(), qPrintable(bad));
        QCOMPARE(refused.error().code, u"policy.bad-host"_s);
    }
    QCOMPARE(network.add(u"nope"_s, u"x.org"_s, RuleKind::Allow, u"a"_s).error().code,
             u"policy.no-such-folder"_s);
    QCOMPARE(network.list(u"corp"_s)->size(), 1);
    QVERIFY(network.add(u""_s, u"base.org"_s, RuleKind::Deny, u"a"_s).ok());
    QCOMPARE(network.list()->size(), 2);
}

void NetworkRulesTest::baseFolderAsNullString()
{
    // The window passes the base as QString(): it must work like u""_s.
    PolicyFixture fixture;
    NetworkRules &network = fixture.policy().network();
    const auto added = network.add(QString(), u"crates.io"_s, RuleKind::Allow, u"a"_s);
    QVERIFY2(added.ok(), added.ok() ? "" : qPrintable(added.error().message));
    QCOMPARE(added->rule.folder, u""_s);
    QVERIFY(network.remove(QString(), u"crates.io"_s, std::nullopt, u"a"_s).ok());
}

void NetworkRulesTest::removeOwnRules()
{
    PolicyFixture fixture;
    buildTree(fixture);
    NetworkRules &network = fixture.policy().network();
    QVERIFY(network.add(u"corp"_s, u"github.com"_s, RuleKind::Deny, u"a"_s).ok());
    // An inherited rule is not the folder's to remove.
    QCOMPARE(network.remove(u"corp/eng"_s, u"pypi.org"_s, std::nullopt, u"a"_s).error().code,
             u"policy.no-such-rule"_s);
    const auto allowOnly = network.remove(u"corp"_s, u"*.github.com"_s, RuleKind::Allow, u"a"_s);
    QCOMPARE(allowOnly->size(), 1);
    QCOMPARE(network.list(u"corp"_s)->size(), 2);
    QVERIFY(network.add(u"corp"_s, u"github.com"_s, RuleKind::Allow, u"a"_s).ok());
    const auto both = network.remove(u"corp"_s, u"github.com"_s, std::nullopt, u"a"_s);
    QCOMPARE(both->size(), 2);
    QVERIFY(network.test(u"corp"_s, u"github.com"_s)->allowed == false);
}

void NetworkRulesTest::otherConnectionsChangesAreSeen()
{
    PolicyFixture fixture;
    buildTree(fixture);
    NetworkRules &network = fixture.policy().network();
    QVERIFY(!network.test(u"other"_s, u"example.net"_s)->allowed);
    auto second = arizuko::store::Store::open(fixture.dataDir());
    QVERIFY(second.ok());
    arizuko::policy::Policy otherPolicy(**second);
    QVERIFY(otherPolicy.network().add(u""_s, u"example.net"_s, RuleKind::Allow, u"a"_s).ok());
    QVERIFY(network.test(u"other"_s, u"example.net"_s)->allowed);
    QVERIFY(otherPolicy.network().add(u"other"_s, u"example.net"_s, RuleKind::Deny, u"a"_s).ok());
    QVERIFY(!network.test(u"other"_s, u"example.net"_s)->allowed);
}

QTEST_MAIN(NetworkRulesTest)
#include "test_network_rules.moc"
