// Rules by method and path against a real store (issue 37): validation with
// clear errors, the store keeping methods and path apart from the host rule,
// resolve() keeping them off the proxy's --allow/--deny, the proxy's --rule
// list with `allow * HOST /**` where a host allow entry or the egress grant
// covers an inspected host, and testRequest() deciding as the proxy does.

#include "policy/egress_command_line.h"
#include "policy/request_rule.h"
#include "policy_fixture.h"

#include <QTest>

using namespace arizuko::policy;
using namespace Qt::StringLiterals;

namespace {

NetworkRule addRule(NetworkRules &rules, const QString &folder, const QString &host, RuleKind kind,
                    const QString &methods = {}, const QString &path = {})
{
    const auto added = rules.add(folder, host, kind, u"test"_s, methods, path);
    if (!added)
        qFatal("cannot add rule: %s", qPrintable(added.error().message));
    return added->rule;
}

} // namespace

class RequestRulesTest : public QObject
{
    Q_OBJECT

private slots:
    void normalizeRequestMatch_data();
    void normalizeRequestMatch();
    void pathGlob_data();
    void pathGlob();
    void storeKeepsRequestRulesApart();
    void proxyRulesAndArguments();
    void boundHostsAreInspectedAndAllowedOnlyWhereAllowed();
    void hostAllowEntryAllowsAllButDenied();
    void egressGrantAllowsAllButDenied();
    void testRequestDecidesAsTheProxy();
};

void RequestRulesTest::normalizeRequestMatch_data()
{
    QTest::addColumn<QString>("methods");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("wantMethods");
    QTest::addColumn<QString>("wantPath");
    QTest::addColumn<QString>("error");
    QTest::newRow("host rule") << u""_s << u""_s << u""_s << u""_s << u""_s;
    QTest::newRow("method only") << u"get"_s << u""_s << u"GET"_s << u"/**"_s << u""_s;
    QTest::newRow("path only") << u""_s << u"/repos/**"_s << u"*"_s << u"/repos/**"_s << u""_s;
    QTest::newRow("dedup") << u"GET,HEAD,GET"_s << u"/"_s << u"GET,HEAD"_s << u"/"_s << u""_s;
    QTest::newRow("empty method") << u"GET,,HEAD"_s << u"/"_s << u""_s << u""_s
                                  << u"policy.bad-methods"_s;
    QTest::newRow("method with digit")
        << u"GET1"_s << u"/"_s << u""_s << u""_s << u"policy.bad-methods"_s;
    QTest::newRow("relative path")
        << u"*"_s << u"repos"_s << u""_s << u""_s << u"policy.bad-path"_s;
    QTest::newRow("query") << u"*"_s << u"/a?b=1"_s << u""_s << u""_s << u"policy.bad-path"_s;
    QTest::newRow("fragment") << u"*"_s << u"/a#b"_s << u""_s << u""_s << u"policy.bad-path"_s;
    QTest::newRow("control") << u"*"_s << u"/a\tb"_s << u""_s << u""_s << u"policy.bad-path"_s;
    QTest::newRow("partial **") << u"*"_s << u"/a**"_s << u""_s << u""_s << u"policy.bad-path"_s;
}

void RequestRulesTest::normalizeRequestMatch()
{
    QFETCH(QString, methods);
    QFETCH(QString, path);
    QFETCH(QString, wantMethods);
    QFETCH(QString, wantPath);
    QFETCH(QString, error);
    const auto match = arizuko::policy::normalizeRequestMatch(methods, path);
    if (!error.isEmpty()) {
        QVERIFY(!match);
        QCOMPARE(match.error().code, error);
        QVERIFY(match.error().message.contains(u'\'' + methods + u'\'') ||
                match.error().message.contains(u'\'' + path + u'\''));
        return;
    }
    QVERIFY2(match, match ? "" : qPrintable(match.error().message));
    QCOMPARE(match->methods, wantMethods);
    QCOMPARE(match->path, wantPath);
}

void RequestRulesTest::pathGlob_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("matches");
    QTest::newRow("exact") << u"/ok"_s << u"/ok"_s << true;
    QTest::newRow("** none") << u"/ok/**"_s << u"/ok"_s << true;
    QTest::newRow("** many") << u"/ok/**"_s << u"/ok/a/b/c"_s << true;
    QTest::newRow("other") << u"/ok/**"_s << u"/other"_s << false;
    QTest::newRow("prefix is no segment") << u"/ok/**"_s << u"/okay"_s << false;
    QTest::newRow("* one segment") << u"/repos/*"_s << u"/repos/a/b"_s << false;
    QTest::newRow("* within") << u"/r/*.git"_s << u"/r/x.git"_s << true;
    QTest::newRow("**/ suffix") << u"/**/git-receive-pack"_s << u"/acme/x.git/git-receive-pack"_s
                                << true;
    QTest::newRow("**/ suffix other")
        << u"/**/git-receive-pack"_s << u"/acme/x.git/git-upload-pack"_s << false;
}

void RequestRulesTest::pathGlob()
{
    QFETCH(QString, pattern);
    QFETCH(QString, path);
    QFETCH(bool, matches);
    QCOMPARE(pathGlobMatches(pattern, path), matches);
}

void RequestRulesTest::storeKeepsRequestRulesApart()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    const NetworkRule host = addRule(rules, u"proj"_s, u"github.com"_s, RuleKind::Allow);
    const NetworkRule push = addRule(rules, u"proj"_s, u"github.com"_s, RuleKind::Deny, u"post"_s,
                                     u"/**/git-receive-pack"_s);
    QCOMPARE(push.methods, u"POST"_s);
    QCOMPARE(ruleText(push), u"deny POST github.com /**/git-receive-pack"_s);
    // The same rule again is the one already there; another path is another rule.
    const auto again = rules.add(u"proj"_s, u"GitHub.com"_s, RuleKind::Deny, u"t"_s, u"POST"_s,
                                 u"/**/git-receive-pack"_s);
    QVERIFY(again && !again->created);
    QCOMPARE(again->rule.id, push.id);
    addRule(rules, u"proj"_s, u"github.com"_s, RuleKind::Deny, u"DELETE"_s, u"/**"_s);
    const auto bad =
        rules.add(u"proj"_s, u"github.com"_s, RuleKind::Allow, u"t"_s, u"*"_s, u"repos"_s);
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, u"policy.bad-path"_s);
    // Methods and path come back from the store (a fresh policy reads it again).
    arizuko::policy::Policy fresh(fixture.store());
    const auto listed = fresh.network().list(u"proj"_s);
    QVERIFY(listed);
    QCOMPARE(listed->size(), 3);
    QCOMPARE(ruleText(listed->at(1)), u"deny POST github.com /**/git-receive-pack"_s);
    // The request rules are not host entries: the proxy's --deny stays empty.
    const auto policy = fresh.network().resolve(u"proj"_s);
    QCOMPARE(policy->allow, QStringList{u"github.com"_s});
    QVERIFY(policy->deny.isEmpty());
    // Removing the host rule leaves the request rules, and each goes by its own methods and path.
    QCOMPARE(rules.remove(u"proj"_s, u"github.com"_s, std::nullopt, u"t"_s)->size(), 1);
    QCOMPARE(rules.list(u"proj"_s)->size(), 2);
    const auto missing =
        rules.remove(u"proj"_s, u"github.com"_s, RuleKind::Deny, u"t"_s, u"GET"_s, u"/**"_s);
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, u"policy.no-such-rule"_s);
    QVERIFY(missing.error().message.contains(u"GET github.com /**"_s));
    QCOMPARE(rules
                 .remove(u"proj"_s, u"github.com"_s, RuleKind::Deny, u"t"_s, u"POST"_s,
                         u"/**/git-receive-pack"_s)
                 ->size(),
             1);
    QCOMPARE(rules.list(u"proj"_s)->size(), 1);
    Q_UNUSED(host);
}

void RequestRulesTest::proxyRulesAndArguments()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    addRule(rules, u""_s, u"pypi.org"_s, RuleKind::Allow);
    addRule(rules, u""_s, u"inspected.test"_s, RuleKind::Allow, u"GET"_s, u"/ok/**"_s);
    addRule(rules, u"proj"_s, u"inspected.test"_s, RuleKind::Deny, u"GET"_s, u"/ok/secret"_s);
    const auto policy = rules.resolve(u"proj"_s);
    QVERIFY(policy);
    const QStringList expected{u"allow GET inspected.test /ok/**"_s,
                               u"deny GET inspected.test /ok/secret"_s};
    QCOMPARE(proxyRequestRules(*policy), expected);
    QCOMPARE(inspectedHosts(*policy), QStringList{u"inspected.test"_s});
    EgressCommandLine line;
    line.allow = policy->allow;
    line.rules = proxyRequestRules(*policy);
    const QStringList arguments = egressArguments(line);
    QCOMPARE(arguments.count(u"--rule"_s), 2);
    const qsizetype first = arguments.indexOf(u"--rule"_s);
    QCOMPARE(arguments.at(first + 1), expected.at(0));
    QCOMPARE(arguments.at(arguments.indexOf(u"--rule"_s, first + 1) + 1), expected.at(1));
    QCOMPARE(arguments.at(arguments.indexOf(u"--inspect-ca-fd"_s) + 1), u"3"_s);
    QCOMPARE(arguments.at(arguments.indexOf(u"--allow"_s) + 1), u"pypi.org"_s);
    // No rule, no inspection: the proxy is started exactly as before.
    EgressCommandLine plain;
    plain.allow = policy->allow;
    QVERIFY(!egressArguments(plain).contains(u"--inspect-ca-fd"_s));
    QVERIFY(!egressArguments(plain).contains(u"--rule"_s));
}

void RequestRulesTest::boundHostsAreInspectedAndAllowedOnlyWhereAllowed()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    addRule(rules, u""_s, u"github.com"_s, RuleKind::Allow);
    addRule(rules, u""_s, u"inspected.test"_s, RuleKind::Allow, u"GET"_s, u"/**"_s);
    const auto policy = rules.resolve(u"proj"_s);
    QVERIFY(policy);
    // api.github.com is allowed by the github.com entry; nope.test by nothing.
    const ProxyInspection inspection =
        proxyInspection(*policy, {u"api.github.com"_s, u"nope.test"_s, u"inspected.test"_s});
    QCOMPARE(inspection.rules,
             QStringList({u"allow GET inspected.test /**"_s, u"allow * api.github.com /**"_s}));
    QCOMPARE(inspection.hosts,
             QStringList({u"inspected.test"_s, u"api.github.com"_s, u"nope.test"_s}));
    // Without bound secrets, what it was.
    QCOMPARE(proxyInspection(*policy).rules, proxyRequestRules(*policy));
    QCOMPARE(proxyInspection(*policy).hosts, QStringList{u"inspected.test"_s});

    // Bound secrets alone make the proxy inspect: the CA on 3, the secrets on 4.
    EgressCommandLine line;
    line.boundSecrets = true;
    const QStringList arguments = egressArguments(line);
    QCOMPARE(arguments.at(arguments.indexOf(u"--inspect-ca-fd"_s) + 1), u"3"_s);
    QCOMPARE(arguments.at(arguments.indexOf(u"--secrets-fd"_s) + 1), u"4"_s);
    QVERIFY(!egressArguments(EgressCommandLine{}).contains(u"--secrets-fd"_s));
}

void RequestRulesTest::hostAllowEntryAllowsAllButDenied()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    const NetworkRule host = addRule(rules, u""_s, u"github.com"_s, RuleKind::Allow);
    addRule(rules, u"proj"_s, u"github.com"_s, RuleKind::Deny, u"POST"_s,
            u"/**/git-receive-pack"_s);
    // A narrower inspected host under a broader allow entry, and the other way round.
    addRule(rules, u"proj"_s, u"api.example.com"_s, RuleKind::Allow, u"GET"_s, u"/**"_s);
    addRule(rules, u"proj"_s, u"x.api.example.com"_s, RuleKind::Allow);
    addRule(rules, u"proj"_s, u"example.com"_s, RuleKind::Deny, u"DELETE"_s, u"/**"_s);
    const auto policy = rules.resolve(u"proj"_s);
    const QStringList proxyRules = proxyRequestRules(*policy);
    QVERIFY(proxyRules.contains(u"allow * github.com /**"_s));
    QVERIFY(proxyRules.contains(u"allow * x.api.example.com /**"_s));
    QVERIFY(!proxyRules.contains(u"allow * example.com /**"_s));
    QVERIFY(!proxyRules.contains(u"allow * api.example.com /**"_s));
    const auto push = testRequest(*policy, u"proj"_s, u"POST"_s, u"github.com"_s,
                                  u"/acme/x.git/git-receive-pack"_s);
    QVERIFY(push->inspected);
    QVERIFY(!push->allowed);
    QVERIFY2(push->reason.contains(u"deny POST github.com /**/git-receive-pack"_s),
             qPrintable(push->reason));
    const auto fetch = testRequest(*policy, u"proj"_s, u"POST"_s, u"github.com"_s,
                                   u"/acme/x.git/git-upload-pack"_s);
    QVERIFY(fetch->allowed);
    QCOMPARE(fetch->decidingRule->id, host.id);
    QVERIFY2(fetch->reason.contains(u"host allow entry"_s), qPrintable(fetch->reason));
    const auto post = testRequest(*policy, u"proj"_s, u"POST"_s, u"api.example.com"_s, u"/x"_s);
    QVERIFY(!post->allowed);
    QVERIFY2(post->reason.contains(u"no-matching-rule"_s), qPrintable(post->reason));
    QVERIFY(testRequest(*policy, u"proj"_s, u"POST"_s, u"x.api.example.com"_s, u"/x"_s)->allowed);
    QVERIFY(
        !testRequest(*policy, u"proj"_s, u"DELETE"_s, u"x.api.example.com"_s, u"/x"_s)->allowed);
}

void RequestRulesTest::egressGrantAllowsAllButDenied()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    addRule(rules, u"proj"_s, u"github.com"_s, RuleKind::Deny, u"POST"_s, u"/**"_s);
    QVERIFY(fixture.grants().add(row(u"proj"_s, u"egress"_s, u"proj"_s), u"t"_s).ok());
    const auto policy = rules.resolve(u"proj"_s);
    QVERIFY(policy->allowAll);
    QVERIFY(proxyRequestRules(*policy).contains(u"allow * github.com /**"_s));
    const auto get = testRequest(*policy, u"proj"_s, u"GET"_s, u"github.com"_s, u"/"_s);
    QVERIFY(get->allowed);
    QVERIFY(get->egressGrant);
    QVERIFY(!testRequest(*policy, u"proj"_s, u"POST"_s, u"github.com"_s, u"/"_s)->allowed);
}

void RequestRulesTest::testRequestDecidesAsTheProxy()
{
    PolicyFixture fixture;
    fixture.addFolder(u"proj"_s);
    NetworkRules &rules = fixture.policy().network();
    const NetworkRule ok =
        addRule(rules, u"proj"_s, u"inspected.test"_s, RuleKind::Allow, u"GET"_s, u"/ok/**"_s);
    addRule(rules, u"proj"_s, u"deny.test"_s, RuleKind::Deny);
    addRule(rules, u"proj"_s, u"deny.test"_s, RuleKind::Allow, u"*"_s, u"/**"_s);
    const auto allowed = rules.testRequest(u"proj"_s, u"GET"_s, u"inspected.test"_s, u"/ok/x"_s);
    QVERIFY(allowed->allowed);
    QCOMPARE(allowed->decidingRule->id, ok.id);
    QVERIFY2(allowed->reason.contains(u"allow GET inspected.test /ok/**"_s),
             qPrintable(allowed->reason));
    QVERIFY(!rules.testRequest(u"proj"_s, u"POST"_s, u"inspected.test"_s, u"/ok/x"_s)->allowed);
    QVERIFY(!rules.testRequest(u"proj"_s, u"GET"_s, u"inspected.test"_s, u"/other"_s)->allowed);
    // Subdomains are inspected as an allow entry covers them.
    QVERIFY(rules.testRequest(u"proj"_s, u"GET"_s, u"a.inspected.test"_s, u"/ok"_s)->inspected);
    // The host denylist wins over any request rule.
    const auto denied = rules.testRequest(u"proj"_s, u"GET"_s, u"deny.test"_s, u"/"_s);
    QVERIFY(!denied->allowed);
    QVERIFY2(denied->reason.contains(u"deny deny.test"_s), qPrintable(denied->reason));
    // A host test says the host is inspected; an uninspected host is as before.
    const auto host = rules.test(u"proj"_s, u"inspected.test"_s);
    QVERIFY(host->inspected);
    QVERIFY(!rules.test(u"proj"_s, u"other.test"_s)->inspected);
    QVERIFY(!rules.testRequest(u"proj"_s, u"GET"_s, u"other.test"_s, u"/"_s)->inspected);
    const auto badPath = rules.testRequest(u"proj"_s, u"GET"_s, u"inspected.test"_s, u"/a?b"_s);
    QVERIFY(!badPath);
    QCOMPARE(badPath.error().code, u"policy.bad-path"_s);
}

QTEST_GUILESS_MAIN(RequestRulesTest)
#include "test_request_rules.moc"
