// authorize() and friends against a real SQLite store: scope globs, the action
// lattice, deny wins, membership (transitive, cycles), params, delegation,
// seeds, effective actions, and a revoke taking effect on the very next call.

#include "policy/call_params.h"
#include "policy_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace arizuko::policy;

namespace {

Grant added(Grants &grants, const Grant &grant)
{
    auto result = grants.add(grant, QStringLiteral("test"));
    if (!result)
        qFatal("cannot add grant: %s", qPrintable(result.error().message));
    return *result;
}

bool allowed(Grants &grants, const QString &principal, const QString &action, const QString &scope,
             const CallParams &params = {})
{
    auto decision = grants.authorize(principal, action, scope, params);
    if (!decision)
        qFatal("authorize failed: %s", qPrintable(decision.error().message));
    return decision->allowed;
}

// The messaging tools the schema seeds for role:member (arizuko's floor role).
const QStringList kMessagingTools = {
    QStringLiteral("mcp:delete"),    QStringLiteral("mcp:dislike"),
    QStringLiteral("mcp:edit"),      QStringLiteral("mcp:forward"),
    QStringLiteral("mcp:like"),      QStringLiteral("mcp:post"),
    QStringLiteral("mcp:quote"),     QStringLiteral("mcp:reply"),
    QStringLiteral("mcp:repost"),    QStringLiteral("mcp:send"),
    QStringLiteral("mcp:send_file"), QStringLiteral("mcp:send_voice"),
};

} // namespace

class GrantsTest : public QObject
{
    Q_OBJECT

private slots:
    void scopeGlobs_data();
    void scopeGlobs();
    void actionLattice_data();
    void actionLattice();
    void params_data();
    void params();
    void hostParamsMatchTheNormalisedHost_data();
    void hostParamsMatchTheNormalisedHost();
    void everyScalarArgumentIsAParam();
    void caseInsensitiveParamsFoldBothSides();
    void noMatchDenies();
    void denyWins();
    void membershipIsTransitive();
    void membershipCyclesTerminate();
    void membershipWritesRefuseCycles();
    void wildcardPrincipals();
    void predicatesOnlyNarrow();
    void seedsEveryFolderAsMember();
    void effectiveActions();
    void delegation_data();
    void delegation();
    void revokeTakesEffectOnNextCall();
    void writesAreValidated();
    void addingTheSameRowTwiceKeepsOne();
    void listShowsRowsThatApply();
    void writesAndDecisionsAreAudited();
};

void GrantsTest::scopeGlobs_data()
{
    QTest::addColumn<QString>("grantScope");
    QTest::addColumn<QString>("scope");
    QTest::addColumn<bool>("expected");
    QTest::newRow("a: a") << QStringLiteral("corp") << QStringLiteral("corp") << true;
    QTest::newRow("a: not a/b") << QStringLiteral("corp") << QStringLiteral("corp/eng") << false;
    QTest::newRow("a/*: a/b") << QStringLiteral("corp/*") << QStringLiteral("corp/eng") << true;
    QTest::newRow("a/*: not a") << QStringLiteral("corp/*") << QStringLiteral("corp") << false;
    QTest::newRow("a/*: not a/b/c")
        << QStringLiteral("corp/*") << QStringLiteral("corp/eng/sre") << false;
    QTest::newRow("a/**: a") << QStringLiteral("corp/**") << QStringLiteral("corp") << true;
    QTest::newRow("a/**: a/b/c") << QStringLiteral("corp/**") << QStringLiteral("corp/eng/sre")
                                 << true;
    QTest::newRow("a/**: not ab") << QStringLiteral("corp/**") << QStringLiteral("corporate")
                                  << false;
    QTest::newRow("**: anything") << QStringLiteral("**") << QStringLiteral("other/deep/folder")
                                  << true;
}

void GrantsTest::scopeGlobs()
{
    QFETCH(QString, grantScope);
    QFETCH(QString, scope);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(),
          row(QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"), grantScope));
    QCOMPARE(
        allowed(fixture.grants(), QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"), scope),
        expected);
}

void GrantsTest::actionLattice_data()
{
    QTest::addColumn<QString>("granted");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<bool>("expected");
    QTest::newRow("* > admin") << QStringLiteral("*") << QStringLiteral("admin") << true;
    QTest::newRow("* > egress") << QStringLiteral("*") << QStringLiteral("egress") << true;
    QTest::newRow("admin > interact")
        << QStringLiteral("admin") << QStringLiteral("interact") << true;
    QTest::newRow("admin > mcp:tool")
        << QStringLiteral("admin") << QStringLiteral("mcp:deploy") << true;
    QTest::newRow("admin !> egress")
        << QStringLiteral("admin") << QStringLiteral("egress") << false;
    QTest::newRow("interact !> admin")
        << QStringLiteral("interact") << QStringLiteral("admin") << false;
    QTest::newRow("interact !> mcp:tool")
        << QStringLiteral("interact") << QStringLiteral("mcp:deploy") << false;
    QTest::newRow("mcp:* > mcp:tool")
        << QStringLiteral("mcp:*") << QStringLiteral("mcp:deploy") << true;
    QTest::newRow("mcp:* !> interact")
        << QStringLiteral("mcp:*") << QStringLiteral("interact") << false;
    QTest::newRow("mcp:tool !> other tool")
        << QStringLiteral("mcp:deploy") << QStringLiteral("mcp:destroy") << false;
}

void GrantsTest::actionLattice()
{
    QFETCH(QString, granted);
    QFETCH(QString, requested);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(), row(QStringLiteral("corp"), granted, QStringLiteral("corp/**")));
    QCOMPARE(
        allowed(fixture.grants(), QStringLiteral("corp"), requested, QStringLiteral("corp/eng")),
        expected);
}

void GrantsTest::params_data()
{
    QTest::addColumn<QString>("jid");
    QTest::addColumn<bool>("present");
    QTest::addColumn<bool>("expected");
    QTest::newRow("matching value") << QStringLiteral("telegram:42") << true << true;
    QTest::newRow("other platform") << QStringLiteral("discord:42") << true << false;
    QTest::newRow("* does not cross /") << QStringLiteral("telegram:user/42") << true << false;
    QTest::newRow("param missing") << QString() << false << false;
}

void GrantsTest::params()
{
    QFETCH(QString, jid);
    QFETCH(bool, present);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(),
          row(QStringLiteral("corp"), QStringLiteral("mcp:notify"), QStringLiteral("corp"),
              Effect::Allow, {{QStringLiteral("jid"), QStringLiteral("telegram:*")}}));
    CallParams call{{QStringLiteral("text"), QStringLiteral("hello")}};
    if (present)
        call.insert(QStringLiteral("jid"), jid);
    QCOMPARE(allowed(fixture.grants(), QStringLiteral("corp"), QStringLiteral("mcp:notify"),
                     QStringLiteral("corp"), call),
             expected);
}

// A `host` param is matched on the host the tool acts on (lower case,
// punycode, no trailing dot, `*.x` as `x`), the way network rules cover
// hosts: a deny refuses every host rule that overlaps it, an allow admits
// only a host rule it covers. Each deny row here passed the raw glob once.
void GrantsTest::hostParamsMatchTheNormalisedHost_data()
{
    QTest::addColumn<QString>("allowGlob"); // empty: an allow without params
    QTest::addColumn<QString>("denyGlob");  // empty: no deny row
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("expected");
    const QString any;
    const QString pastebin = QStringLiteral("*.pastebin.com");
    QTest::newRow("deny, upper case")
        << any << pastebin << QStringLiteral("X.PASTEBIN.COM") << false;
    QTest::newRow("deny, trailing dot")
        << any << pastebin << QStringLiteral("x.pastebin.com.") << false;
    QTest::newRow("deny, the apex") << any << pastebin << QStringLiteral("PASTEBIN.COM") << false;
    QTest::newRow("deny, the apex lower")
        << any << pastebin << QStringLiteral("pastebin.com") << false;
    QTest::newRow("deny, leading space")
        << any << pastebin << QStringLiteral(" x.pastebin.com") << false;
    QTest::newRow("deny, trailing space")
        << any << pastebin << QStringLiteral("x.pastebin.com ") << false;
    QTest::newRow("deny, a parent rule")
        << any << QStringLiteral("api.pastebin.com") << QStringLiteral("pastebin.com") << false;
    QTest::newRow("deny pastebin.com, leading *.")
        << any << QStringLiteral("pastebin.com") << QStringLiteral("*.pastebin.com") << false;
    QTest::newRow("deny in upper case")
        << any << QStringLiteral("*.PASTEBIN.COM") << QStringLiteral("x.pastebin.com") << false;
    QTest::newRow("deny unicode, call punycode")
        << any << QStringLiteral("*.b\u00fccher.example")
        << QStringLiteral("X.xn--bcher-kva.example") << false;
    QTest::newRow("deny punycode, call unicode")
        << any << QStringLiteral("*.xn--bcher-kva.example")
        << QStringLiteral("x.B\u00dcCHER.example") << false;
    QTest::newRow("deny leaves others") << any << pastebin << QStringLiteral("github.com") << true;
    QTest::newRow("deny leaves look-alikes")
        << any << pastebin << QStringLiteral("notpastebin.com") << true;
    const QString github = QStringLiteral("*.github.com");
    QTest::newRow("allow, upper case") << github << any << QStringLiteral("API.GITHUB.COM") << true;
    QTest::newRow("allow, the apex") << github << any << QStringLiteral("github.com") << true;
    QTest::newRow("allow, not a parent") << github << any << QStringLiteral("com") << false;
    QTest::newRow("allow, not a look-alike")
        << github << any << QStringLiteral("evilgithub.com") << false;
}

void GrantsTest::hostParamsMatchTheNormalisedHost()
{
    QFETCH(QString, allowGlob);
    QFETCH(QString, denyGlob);
    QFETCH(QString, host);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    const QString hostParam = QStringLiteral("host");
    const QString action = QStringLiteral("mcp:network_allow");
    GrantParams allowParams;
    if (!allowGlob.isEmpty())
        allowParams.insert(hostParam, allowGlob);
    added(fixture.grants(),
          row(QStringLiteral("corp"), action, QStringLiteral("corp"), Effect::Allow, allowParams));
    if (!denyGlob.isEmpty())
        added(fixture.grants(), row(QStringLiteral("corp"), action, QStringLiteral("corp"),
                                    Effect::Deny, {{hostParam, denyGlob}}));
    QCOMPARE(allowed(fixture.grants(), QStringLiteral("corp"), action, QStringLiteral("corp"),
                     {{hostParam, host}}),
             expected);
}

// A deny on `number=7` sees the number 7 as "7"; an array or object, which
// no glob could be matched on without passing a deny, is refused.
void GrantsTest::everyScalarArgumentIsAParam()
{
    const auto params = callParamsOf(QJsonObject{{QStringLiteral("number"), 7.0},
                                                 {QStringLiteral("ratio"), 0.5},
                                                 {QStringLiteral("big"), 1e300},
                                                 {QStringLiteral("zero"), -0.0},
                                                 {QStringLiteral("draft"), true},
                                                 {QStringLiteral("text"), QStringLiteral("x")},
                                                 {QStringLiteral("none"), QJsonValue::Null}});
    QVERIFY2(params, qPrintable(params ? QString() : params.error().message));
    QCOMPARE(*params, (CallParams{{QStringLiteral("number"), QStringLiteral("7")},
                                  {QStringLiteral("ratio"), QStringLiteral("0.5")},
                                  {QStringLiteral("big"), QStringLiteral("1e+300")},
                                  {QStringLiteral("zero"), QStringLiteral("0")},
                                  {QStringLiteral("draft"), QStringLiteral("true")},
                                  {QStringLiteral("text"), QStringLiteral("x")}}));
    for (const QJsonValue &value : {QJsonValue(QJsonArray{7}), QJsonValue(QJsonObject{})}) {
        const auto refused = callParamsOf(QJsonObject{{QStringLiteral("number"), value}});
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("policy.bad-argument"));
    }
}

// A param the service compares without case (GitHub's owner) is matched
// case-folded on both sides; any other stays a case-sensitive glob.
void GrantsTest::caseInsensitiveParamsFoldBothSides()
{
    PolicyFixture fixture;
    const QString action = QStringLiteral("ext:github:issues:read");
    const QString corp = QStringLiteral("corp");
    const QString owner = QStringLiteral("owner");
    added(fixture.grants(), row(corp, action, corp));
    added(fixture.grants(),
          row(corp, action, corp, Effect::Deny, {{owner, QStringLiteral("Octo*")}}));
    const auto decided = [&](const QString &value, const CaseInsensitiveParams &folded) {
        const auto decision =
            fixture.grants().authorize(corp, action, corp, {{owner, value}}, folded);
        if (!decision)
            qFatal("authorize failed: %s", qPrintable(decision.error().message));
        return decision->allowed;
    };
    QVERIFY(!decided(QStringLiteral("octocat"), {owner}));
    QVERIFY(!decided(QStringLiteral("OCTOCAT"), {owner}));
    QVERIFY(decided(QStringLiteral("github"), {owner}));
    QVERIFY(decided(QStringLiteral("octocat"), {}));
    QVERIFY(!decided(QStringLiteral("Octocat"), {}));
}

void GrantsTest::noMatchDenies()
{
    PolicyFixture fixture;
    auto decision = fixture.grants().authorize(QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                                               QStringLiteral("corp"));
    QVERIFY(decision.ok());
    QVERIFY(!decision->allowed);
    QVERIFY(!decision->decidingGrant);
    QVERIFY2(decision->reason.contains(QStringLiteral("no grant allows")),
             qPrintable(decision->reason));
}

void GrantsTest::denyWins()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp/**")));
    const Grant deny = added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:send_file"),
                                         QStringLiteral("corp/secret"), Effect::Deny));
    QVERIFY(allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:send_file"),
                    QStringLiteral("corp/eng")));
    auto decision = grants.authorize(QStringLiteral("corp"), QStringLiteral("mcp:send_file"),
                                     QStringLiteral("corp/secret"));
    QVERIFY(!decision->allowed);
    QCOMPARE(decision->decidingGrant->id, deny.id);
    // A deny reached through a membership beats a direct allow.
    QVERIFY(grants
                .addMembership(QStringLiteral("corp"), QStringLiteral("role:restricted"),
                               QStringLiteral("test"))
                .ok());
    added(grants, row(QStringLiteral("role:restricted"), QStringLiteral("interact"),
                      QStringLiteral("**"), Effect::Deny));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("interact"),
                     QStringLiteral("corp")));
    // A deny on a wildcard principal beats everything it matches.
    added(grants, row(QStringLiteral("**"), QStringLiteral("mcp:*"), QStringLiteral("corp/eng"),
                      Effect::Deny));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:anything"),
                     QStringLiteral("corp/eng")));
    // A param-narrowed deny denies only the calls it matches.
    added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:post"), QStringLiteral("corp/**"),
                      Effect::Deny, {{QStringLiteral("jid"), QStringLiteral("public:*")}}));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:post"),
                     QStringLiteral("corp/ops"),
                     {{QStringLiteral("jid"), QStringLiteral("public:x")}}));
    QVERIFY(allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:post"),
                    QStringLiteral("corp/ops"),
                    {{QStringLiteral("jid"), QStringLiteral("team:x")}}));
}

void GrantsTest::membershipIsTransitive()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QVERIFY(grants
                .addMembership(QStringLiteral("corp/eng"), QStringLiteral("role:dev"),
                               QStringLiteral("test"))
                .ok());
    QVERIFY(grants
                .addMembership(QStringLiteral("role:dev"), QStringLiteral("role:builder"),
                               QStringLiteral("test"))
                .ok());
    QVERIFY(grants
                .addMembership(QStringLiteral("role:builder"), QStringLiteral("role:deployer"),
                               QStringLiteral("test"))
                .ok());
    QVERIFY(!allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"),
                     QStringLiteral("corp/eng")));
    added(grants, row(QStringLiteral("role:deployer"), QStringLiteral("mcp:deploy"),
                      QStringLiteral("corp/**")));
    QVERIFY(allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"),
                    QStringLiteral("corp/eng")));
    QCOMPARE(*grants.expand(QStringLiteral("corp/eng")),
             (QStringList{QStringLiteral("corp/eng"), QStringLiteral("role:dev"),
                          QStringLiteral("role:builder"), QStringLiteral("role:deployer")}));
    // Membership is one-way: the role does not gain the member's grants.
    added(grants,
          row(QStringLiteral("corp/eng"), QStringLiteral("mcp:only_eng"), QStringLiteral("**")));
    QVERIFY(!allowed(grants, QStringLiteral("role:deployer"), QStringLiteral("mcp:only_eng"),
                     QStringLiteral("corp/eng")));
    QVERIFY(grants
                .removeMembership(QStringLiteral("role:dev"), QStringLiteral("role:builder"),
                                  QStringLiteral("test"))
                .ok());
    QVERIFY(!allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"),
                     QStringLiteral("corp/eng")));
}

void GrantsTest::membershipCyclesTerminate()
{
    PolicyFixture fixture;
    // A cycle written behind the API's back (a hand edit, another tool) must not
    // hang or crash evaluation.
    PolicyFixture::exec(
        fixture.store().database(),
        QStringLiteral("INSERT INTO acl_membership (child, parent) VALUES "
                       "('role:a', 'role:b'), ('role:b', 'role:c'), ('role:c', 'role:a'), "
                       "('role:c', 'role:c')"));
    Grants &grants = fixture.grants();
    added(grants, row(QStringLiteral("role:c"), QStringLiteral("mcp:x"), QStringLiteral("**")));
    QVERIFY(
        allowed(grants, QStringLiteral("role:a"), QStringLiteral("mcp:x"), QStringLiteral("any")));
    QCOMPARE(grants.expand(QStringLiteral("role:a"))->size(), 3);
    QVERIFY(
        !allowed(grants, QStringLiteral("role:a"), QStringLiteral("mcp:y"), QStringLiteral("any")));
}

void GrantsTest::membershipWritesRefuseCycles()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QVERIFY(grants
                .addMembership(QStringLiteral("role:a"), QStringLiteral("role:b"),
                               QStringLiteral("test"))
                .ok());
    QVERIFY(grants
                .addMembership(QStringLiteral("role:b"), QStringLiteral("role:c"),
                               QStringLiteral("test"))
                .ok());
    const auto cycle = grants.addMembership(QStringLiteral("role:c"), QStringLiteral("role:a"),
                                            QStringLiteral("test"));
    QVERIFY(!cycle.ok());
    QCOMPARE(cycle.error().code, QStringLiteral("policy.membership-cycle"));
    QCOMPARE(grants
                 .addMembership(QStringLiteral("role:a"), QStringLiteral("role:a"),
                                QStringLiteral("test"))
                 .error()
                 .code,
             QStringLiteral("policy.membership-cycle"));
    QCOMPARE(grants
                 .addMembership(QStringLiteral("corp/*"), QStringLiteral("role:a"),
                                QStringLiteral("test"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-membership"));
    QCOMPARE(grants
                 .removeMembership(QStringLiteral("role:a"), QStringLiteral("role:z"),
                                   QStringLiteral("test"))
                 .error()
                 .code,
             QStringLiteral("policy.no-such-membership"));
}

void GrantsTest::wildcardPrincipals()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    added(grants,
          row(QStringLiteral("corp/*"), QStringLiteral("mcp:status"), QStringLiteral("**")));
    QVERIFY(allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("mcp:status"),
                    QStringLiteral("corp/eng")));
    QVERIFY(!allowed(grants, QStringLiteral("corp/eng/sre"), QStringLiteral("mcp:status"),
                     QStringLiteral("corp/eng")));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:status"),
                     QStringLiteral("corp")));
    // A wildcard principal also matches what a principal is a member of.
    added(grants, row(QStringLiteral("role:*"), QStringLiteral("mcp:ping"), QStringLiteral("**")));
    QVERIFY(!allowed(grants, QStringLiteral("solo"), QStringLiteral("mcp:ping"),
                     QStringLiteral("solo")));
    QVERIFY(
        grants
            .addMembership(QStringLiteral("solo"), QStringLiteral("role:x"), QStringLiteral("test"))
            .ok());
    QVERIFY(allowed(grants, QStringLiteral("solo"), QStringLiteral("mcp:ping"),
                    QStringLiteral("solo")));
}

void GrantsTest::predicatesOnlyNarrow()
{
    PolicyFixture fixture;
    PolicyFixture::exec(
        fixture.store().database(),
        QStringLiteral("INSERT INTO acl (principal, action, scope, effect, predicate, granted_at) "
                       "VALUES ('corp', 'mcp:a', '**', 'allow', 'github:org=acme', 'now'), "
                       "('corp', 'mcp:b', '**', 'allow', '', 'now'), "
                       "('corp', 'mcp:b', '**', 'deny', 'github:org=acme', 'now')"));
    QVERIFY(!allowed(fixture.grants(), QStringLiteral("corp"), QStringLiteral("mcp:a"),
                     QStringLiteral("corp")));
    QVERIFY(!allowed(fixture.grants(), QStringLiteral("corp"), QStringLiteral("mcp:b"),
                     QStringLiteral("corp")));
}

void GrantsTest::seedsEveryFolderAsMember()
{
    PolicyFixture fixture;
    fixture.addFolder(QStringLiteral("corp"));
    fixture.addFolder(QStringLiteral("corp/eng"));
    Grants &grants = fixture.grants();
    QVERIFY(grants.expand(QStringLiteral("corp/eng"))->contains(QStringLiteral("role:member")));
    for (const QString &tool : kMessagingTools)
        QVERIFY2(allowed(grants, QStringLiteral("corp/eng"), tool, QStringLiteral("corp/eng")),
                 qPrintable(tool));
    QVERIFY(!allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("mcp:register_group"),
                     QStringLiteral("corp/eng")));
    QVERIFY(!allowed(grants, QStringLiteral("corp/eng"), QStringLiteral("egress"),
                     QStringLiteral("corp/eng")));
    // A principal that is no folder is nobody's member.
    QVERIFY(!allowed(grants, QStringLiteral("stranger"), QStringLiteral("mcp:send"),
                     QStringLiteral("stranger")));
    // Removing the folder removes its membership with it.
    PolicyFixture::exec(fixture.store().database(),
                        QStringLiteral("DELETE FROM groups WHERE folder = 'corp'"));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:send"),
                     QStringLiteral("corp")));
}

void GrantsTest::effectiveActions()
{
    PolicyFixture fixture;
    fixture.addFolder(QStringLiteral("corp"));
    Grants &grants = fixture.grants();
    QCOMPARE(*grants.effectiveActions(QStringLiteral("corp"), QStringLiteral("corp")),
             kMessagingTools);
    // A tool granted elsewhere shows up only where its scope reaches.
    added(grants,
          row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"), QStringLiteral("corp/prod")));
    QVERIFY(!grants.effectiveActions(QStringLiteral("corp"), QStringLiteral("corp"))
                 ->contains(QStringLiteral("mcp:deploy")));
    QVERIFY(grants.effectiveActions(QStringLiteral("corp"), QStringLiteral("corp/prod"))
                ->contains(QStringLiteral("mcp:deploy")));
    // The default catalogue is every tool some row names, mcp:* not being one.
    QStringList catalogue = kMessagingTools;
    catalogue << QStringLiteral("mcp:deploy");
    catalogue.sort();
    QCOMPARE(*grants.toolCatalogue(), catalogue);
    // An unconditional deny hides a tool; a param-narrowed deny does not.
    added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:like"), QStringLiteral("**"),
                      Effect::Deny));
    added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:send"), QStringLiteral("**"),
                      Effect::Deny, {{QStringLiteral("jid"), QStringLiteral("x:*")}}));
    const QStringList visible =
        *grants.effectiveActions(QStringLiteral("corp"), QStringLiteral("corp"));
    QVERIFY(!visible.contains(QStringLiteral("mcp:like")));
    QVERIFY(visible.contains(QStringLiteral("mcp:send")));
    // Wildcard rows are expanded over the catalogue the caller knows.
    added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:*"), QStringLiteral("corp")));
    QCOMPARE(*grants.effectiveActions(QStringLiteral("corp"), QStringLiteral("corp"),
                                      {QStringLiteral("mcp:like"), QStringLiteral("mcp:shell"),
                                       QStringLiteral("mcp:read")}),
             (QStringList{QStringLiteral("mcp:read"), QStringLiteral("mcp:shell")}));
}

void GrantsTest::delegation_data()
{
    QTest::addColumn<QString>("principal");
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("scope");
    QTest::addColumn<bool>("deny");
    QTest::addColumn<QString>("jid");
    QTest::addColumn<QString>("refusal"); // empty: accepted

    // corp holds: admin on corp/** WITH GRANT OPTION; mcp:notify on corp/** with
    // jid=team:* WITH GRANT OPTION; egress on corp without it; a deny of
    // mcp:deploy on corp/prod.
    QTest::newRow("subset of admin")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:build")
        << QStringLiteral("corp/eng/**") << false << QString() << QString();
    QTest::newRow("admin itself, narrower scope")
        << QStringLiteral("corp/eng") << QStringLiteral("admin") << QStringLiteral("corp/eng")
        << false << QString() << QString();
    QTest::newRow("mcp:* under admin")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:*") << QStringLiteral("corp/eng/*")
        << false << QString() << QString();
    QTest::newRow("mcp:* reaching own deny")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:*") << QStringLiteral("corp/*")
        << false << QString() << QStringLiteral("itself is denied");
    QTest::newRow("params narrowed")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:notify") << QStringLiteral("corp/eng")
        << false << QStringLiteral("team:eng") << QString();
    QTest::newRow("wider scope") << QStringLiteral("corp/eng") << QStringLiteral("mcp:build")
                                 << QStringLiteral("**") << false << QString()
                                 << QStringLiteral("WITH GRANT OPTION");
    QTest::newRow("sibling scope")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:build") << QStringLiteral("corporate")
        << false << QString() << QStringLiteral("WITH GRANT OPTION");
    QTest::newRow("higher action")
        << QStringLiteral("corp/eng") << QStringLiteral("*") << QStringLiteral("corp/eng") << false
        << QString() << QStringLiteral("WITH GRANT OPTION");
    QTest::newRow("held without grant option")
        << QStringLiteral("corp/eng") << QStringLiteral("egress") << QStringLiteral("corp") << false
        << QString() << QStringLiteral("WITH GRANT OPTION");
    QTest::newRow("deny row") << QStringLiteral("corp/eng") << QStringLiteral("mcp:build")
                              << QStringLiteral("corp/eng") << true << QString()
                              << QStringLiteral("deny row");
    QTest::newRow("wildcard principal")
        << QStringLiteral("corp/*") << QStringLiteral("mcp:build") << QStringLiteral("corp/eng")
        << false << QString() << QStringLiteral("wildcard principal");
    QTest::newRow("everyone") << QStringLiteral("**") << QStringLiteral("mcp:build")
                              << QStringLiteral("corp/eng") << false << QString()
                              << QStringLiteral("wildcard principal");
    QTest::newRow("past own deny")
        << QStringLiteral("corp/eng") << QStringLiteral("mcp:deploy") << QStringLiteral("corp/**")
        << false << QString() << QStringLiteral("itself is denied");
}

void GrantsTest::delegation()
{
    QFETCH(QString, principal);
    QFETCH(QString, action);
    QFETCH(QString, scope);
    QFETCH(bool, deny);
    QFETCH(QString, jid);
    QFETCH(QString, refusal);
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp/**"),
                      Effect::Allow, {}, true));
    added(grants,
          row(QStringLiteral("corp"), QStringLiteral("mcp:notify"), QStringLiteral("corp/**"),
              Effect::Allow, {{QStringLiteral("jid"), QStringLiteral("team:*")}}, true));
    added(grants, row(QStringLiteral("corp"), QStringLiteral("egress"), QStringLiteral("corp")));
    added(grants, row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                      QStringLiteral("corp/prod"), Effect::Deny));
    const qsizetype rowsBefore = grants.list()->size();

    GrantParams params;
    if (!jid.isEmpty())
        params.insert(QStringLiteral("jid"), jid);
    const auto result =
        grants.delegate(QStringLiteral("corp"),
                        row(principal, action, scope, deny ? Effect::Deny : Effect::Allow, params));
    if (refusal.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
        QCOMPARE(result->grantedBy, QStringLiteral("corp"));
        QCOMPARE(grants.list()->size(), rowsBefore + 1);
    } else {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, QStringLiteral("policy.delegation-refused"));
        QVERIFY2(result.error().message.contains(refusal), qPrintable(result.error().message));
        QCOMPARE(grants.list()->size(), rowsBefore);
    }
}

void GrantsTest::revokeTakesEffectOnNextCall()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    const Grant grant = added(
        grants, row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"), QStringLiteral("corp")));
    QVERIFY(allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                    QStringLiteral("corp")));

    // Another connection (as another process would) revokes: the next call denies.
    auto other = arizuko::store::Store::open(fixture.dataDir());
    QVERIFY(other.ok());
    arizuko::policy::Policy otherPolicy(**other);
    QVERIFY(otherPolicy.grants().remove(grant.id, QStringLiteral("test")).ok());
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                     QStringLiteral("corp")));

    // The other connection grants again, then denies: each shows at once.
    added(otherPolicy.grants(),
          row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"), QStringLiteral("corp")));
    QVERIFY(allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                    QStringLiteral("corp")));
    added(otherPolicy.grants(), row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                                    QStringLiteral("**"), Effect::Deny));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                     QStringLiteral("corp")));

    // A raw SQL write on the same connection, bypassing Grants, is seen too.
    PolicyFixture::exec(fixture.store().database(),
                        QStringLiteral("DELETE FROM acl WHERE effect = 'deny'"));
    QVERIFY(allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                    QStringLiteral("corp")));
    PolicyFixture::exec(
        fixture.store().database(),
        QStringLiteral("UPDATE acl SET scope = 'elsewhere' WHERE action = 'mcp:deploy'"));
    QVERIFY(!allowed(grants, QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                     QStringLiteral("corp")));
}

void GrantsTest::writesAreValidated()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QCOMPARE(grants
                 .add(row(QStringLiteral(""), QStringLiteral("admin"), QStringLiteral("corp")),
                      QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-principal"));
    QCOMPARE(
        grants
            .add(row(QStringLiteral("corp eng"), QStringLiteral("admin"), QStringLiteral("corp")),
                 QStringLiteral("t"))
            .error()
            .code,
        QStringLiteral("policy.bad-principal"));
    QCOMPARE(grants
                 .add(row(QStringLiteral("corp"), QStringLiteral("mcp:"), QStringLiteral("corp")),
                      QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-action"));
    for (const QString &scope :
         {QStringLiteral(""), QStringLiteral("/corp"), QStringLiteral("corp/"),
          QStringLiteral("corp//eng"), QStringLiteral("corp/..")}) {
        const auto result = grants.add(row(QStringLiteral("corp"), QStringLiteral("admin"), scope),
                                       QStringLiteral("t"));
        QVERIFY2(!result.ok(), qPrintable(scope));
        QCOMPARE(result.error().code, QStringLiteral("policy.bad-scope"));
        QVERIFY(result.error().message.contains(QStringLiteral("corp/**")));
    }
    Grant withPredicate =
        row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp"));
    withPredicate.predicate = QStringLiteral("github:org=acme");
    QCOMPARE(grants.add(withPredicate, QStringLiteral("t")).error().code,
             QStringLiteral("policy.bad-predicate"));
    QCOMPARE(grants.remove(9999, QStringLiteral("t")).error().code,
             QStringLiteral("policy.no-such-grant"));

    // What could only hide what a row says: control and format characters
    // (U+202E reverses a listing) and lengths no folder or tool has.
    const qsizetype before = grants.list()->size();
    for (const QString &hostile : {QStringLiteral("corp\u202Eeng"), QStringLiteral("corp\x01"),
                                   QStringLiteral("corp\neng"), QString(300, u'a')}) {
        QCOMPARE(grants
                     .add(row(hostile, QStringLiteral("admin"), QStringLiteral("corp")),
                          QStringLiteral("t"))
                     .error()
                     .code,
                 QStringLiteral("policy.bad-principal"));
        QCOMPARE(grants
                     .add(row(QStringLiteral("corp"), QStringLiteral("admin"), hostile),
                          QStringLiteral("t"))
                     .error()
                     .code,
                 QStringLiteral("policy.bad-scope"));
        Grant withParam =
            row(QStringLiteral("corp"), QStringLiteral("mcp:send"), QStringLiteral("corp"));
        withParam.params.insert(QStringLiteral("jid"), hostile);
        QCOMPARE(grants.add(withParam, QStringLiteral("t")).error().code,
                 QStringLiteral("policy.bad-params"));
    }
    QCOMPARE(grants
                 .add(row(QStringLiteral("corp"), QStringLiteral("mcp:") + QString(200, u'a'),
                          QStringLiteral("corp")),
                      QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-action"));
    QCOMPARE(grants.list()->size(), before);
}

void GrantsTest::addingTheSameRowTwiceKeepsOne()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    const qsizetype before = grants.list()->size();
    const Grant first =
        added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp")));
    const Grant second =
        added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp")));
    QCOMPARE(second.id, first.id);
    QCOMPARE(grants.list()->size(), before + 1);
    const Grant deny = added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"),
                                         QStringLiteral("corp"), Effect::Deny));
    QVERIFY(deny.id != first.id);
}

void GrantsTest::listShowsRowsThatApply()
{
    PolicyFixture fixture;
    fixture.addFolder(QStringLiteral("corp"));
    Grants &grants = fixture.grants();
    const Grant own =
        added(grants, row(QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp")));
    const Grant wildcard =
        added(grants, row(QStringLiteral("c*"), QStringLiteral("mcp:x"), QStringLiteral("**")));
    added(grants, row(QStringLiteral("other"), QStringLiteral("admin"), QStringLiteral("other")));
    const auto applying = grants.list(QStringLiteral("corp"));
    QList<qint64> ids;
    for (const Grant &grant : *applying)
        ids << grant.id;
    QVERIFY(ids.contains(own.id));
    QVERIFY(ids.contains(wildcard.id));
    QCOMPARE(ids.size(), 2 + kMessagingTools.size()); // own, wildcard, role:member's seeds
}

void GrantsTest::writesAndDecisionsAreAudited()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    arizuko::audit::AuditLog log(fixture.store());
    const auto entries = [&log](const QString &kind) {
        return *log.query(arizuko::audit::Query{kind, {}, 0, 100, {}});
    };
    const Grant grant = added(
        grants, row(QStringLiteral("corp"), QStringLiteral("mcp:deploy"), QStringLiteral("corp")));
    QVERIFY(grants
                .addMembership(QStringLiteral("corp"), QStringLiteral("role:ops"),
                               QStringLiteral("alice"))
                .ok());
    QVERIFY(grants.remove(grant.id, QStringLiteral("alice")).ok());
    QCOMPARE(entries(QStringLiteral("grant.add")).size(), 1);
    QCOMPARE(
        entries(QStringLiteral("grant.add")).first().detail.value(QStringLiteral("id")).toInteger(),
        grant.id);
    QCOMPARE(entries(QStringLiteral("grant.member.add")).first().actor, QStringLiteral("alice"));
    QCOMPARE(entries(QStringLiteral("grant.remove")).first().subject, QStringLiteral("corp"));

    // authorize() is a pure question; decide() is a call and is recorded.
    QVERIFY(
        grants
            .authorize(QStringLiteral("corp"), QStringLiteral("mcp:deploy"), QStringLiteral("corp"))
            .ok());
    QVERIFY(entries(QStringLiteral("grant.decision")).isEmpty());
    QVERIFY(!grants
                 .decide(QStringLiteral("corp"), QStringLiteral("mcp:deploy"),
                         QStringLiteral("corp"),
                         {{QStringLiteral("token"), QStringLiteral("s3cr3t")}})
                 ->allowed);
    const auto decisions = entries(QStringLiteral("grant.decision"));
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().detail.value(QStringLiteral("allowed")).toBool(), false);
    QCOMPARE(
        decisions.first().detail.value(QStringLiteral("param_names")).toArray().first().toString(),
        QStringLiteral("token"));
    QVERIFY(!QJsonDocument(decisions.first().detail).toJson().contains("s3cr3t"));

    // A refused write leaves no audit entry and no row.
    const qsizetype before = entries(QStringLiteral("grant")).size();
    QVERIFY(!grants
                 .delegate(QStringLiteral("corp"),
                           row(QStringLiteral("x"), QStringLiteral("admin"), QStringLiteral("x")))
                 .ok());
    QCOMPARE(entries(QStringLiteral("grant")).size(), before);
}

QTEST_MAIN(GrantsTest)
#include "test_grants.moc"
