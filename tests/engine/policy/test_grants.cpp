// authorize() and friends against a real SQLite store: scope globs, the action
// lattice, deny wins, membership (transitive, cycles), params, delegation,
// seeds, effective actions, and a revoke taking effect on the very next call.

#include "policy_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace arizuko::policy;

namespace {

Grant added(Grants &grants, const Grant &grant)
{
    auto result = grants.add(grant, u"test"_s);
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
    u"mcp:delete"_s, u"mcp:dislike"_s, u"mcp:edit"_s,      u"mcp:forward"_s,
    u"mcp:like"_s,   u"mcp:post"_s,    u"mcp:quote"_s,     u"mcp:reply"_s,
    u"mcp:repost"_s, u"mcp:send"_s,    u"mcp:send_file"_s, u"mcp:send_voice"_s,
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
    QTest::newRow("a: a") << u"corp"_s << u"corp"_s << true;
    QTest::newRow("a: not a/b") << u"corp"_s << u"corp/eng"_s << false;
    QTest::newRow("a/*: a/b") << u"corp/*"_s << u"corp/eng"_s << true;
    QTest::newRow("a/*: not a") << u"corp/*"_s << u"corp"_s << false;
    QTest::newRow("a/*: not a/b/c") << u"corp/*"_s << u"corp/eng/sre"_s << false;
    QTest::newRow("a/**: a") << u"corp/**"_s << u"corp"_s << true;
    QTest::newRow("a/**: a/b/c") << u"corp/**"_s << u"corp/eng/sre"_s << true;
    QTest::newRow("a/**: not ab") << u"corp/**"_s << u"corporate"_s << false;
    QTest::newRow("**: anything") << u"**"_s << u"other/deep/folder"_s << true;
}

void GrantsTest::scopeGlobs()
{
    QFETCH(QString, grantScope);
    QFETCH(QString, scope);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(), row(u"corp/eng"_s, u"mcp:deploy"_s, grantScope));
    QCOMPARE(allowed(fixture.grants(), u"corp/eng"_s, u"mcp:deploy"_s, scope), expected);
}

void GrantsTest::actionLattice_data()
{
    QTest::addColumn<QString>("granted");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<bool>("expected");
    QTest::newRow("* > admin") << u"*"_s << u"admin"_s << true;
    QTest::newRow("* > egress") << u"*"_s << u"egress"_s << true;
    QTest::newRow("admin > interact") << u"admin"_s << u"interact"_s << true;
    QTest::newRow("admin > mcp:tool") << u"admin"_s << u"mcp:deploy"_s << true;
    QTest::newRow("admin !> egress") << u"admin"_s << u"egress"_s << false;
    QTest::newRow("interact !> admin") << u"interact"_s << u"admin"_s << false;
    QTest::newRow("interact !> mcp:tool") << u"interact"_s << u"mcp:deploy"_s << false;
    QTest::newRow("mcp:* > mcp:tool") << u"mcp:*"_s << u"mcp:deploy"_s << true;
    QTest::newRow("mcp:* !> interact") << u"mcp:*"_s << u"interact"_s << false;
    QTest::newRow("mcp:tool !> other tool") << u"mcp:deploy"_s << u"mcp:destroy"_s << false;
}

void GrantsTest::actionLattice()
{
    QFETCH(QString, granted);
    QFETCH(QString, requested);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(), row(u"corp"_s, granted, u"corp/**"_s));
    QCOMPARE(allowed(fixture.grants(), u"corp"_s, requested, u"corp/eng"_s), expected);
}

void GrantsTest::params_data()
{
    QTest::addColumn<QString>("jid");
    QTest::addColumn<bool>("present");
    QTest::addColumn<bool>("expected");
    QTest::newRow("matching value") << u"telegram:42"_s << true << true;
    QTest::newRow("other platform") << u"discord:42"_s << true << false;
    QTest::newRow("* does not cross /") << u"telegram:user/42"_s << true << false;
    QTest::newRow("param missing") << QString() << false << false;
}

void GrantsTest::params()
{
    QFETCH(QString, jid);
    QFETCH(bool, present);
    QFETCH(bool, expected);
    PolicyFixture fixture;
    added(fixture.grants(),
          row(u"corp"_s, u"mcp:notify"_s, u"corp"_s, Effect::Allow, {{u"jid"_s, u"telegram:*"_s}}));
    CallParams call{{u"text"_s, u"hello"_s}};
    if (present)
        call.insert(u"jid"_s, jid);
    QCOMPARE(allowed(fixture.grants(), u"corp"_s, u"mcp:notify"_s, u"corp"_s, call), expected);
}

void GrantsTest::noMatchDenies()
{
    PolicyFixture fixture;
    auto decision = fixture.grants().authorize(u"corp"_s, u"mcp:deploy"_s, u"corp"_s);
    QVERIFY(decision.ok());
    QVERIFY(!decision->allowed);
    QVERIFY(!decision->decidingGrant);
    QVERIFY2(decision->reason.contains(u"no grant allows"_s), qPrintable(decision->reason));
}

void GrantsTest::denyWins()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    added(grants, row(u"corp"_s, u"admin"_s, u"corp/**"_s));
    const Grant deny =
        added(grants, row(u"corp"_s, u"mcp:send_file"_s, u"corp/secret"_s, Effect::Deny));
    QVERIFY(allowed(grants, u"corp"_s, u"mcp:send_file"_s, u"corp/eng"_s));
    auto decision = grants.authorize(u"corp"_s, u"mcp:send_file"_s, u"corp/secret"_s);
    QVERIFY(!decision->allowed);
    QCOMPARE(decision->decidingGrant->id, deny.id);
    // A deny reached through a membership beats a direct allow.
    QVERIFY(grants.addMembership(u"corp"_s, u"role:restricted"_s, u"test"_s).ok());
    added(grants, row(u"role:restricted"_s, u"interact"_s, u"**"_s, Effect::Deny));
    QVERIFY(!allowed(grants, u"corp"_s, u"interact"_s, u"corp"_s));
    // A deny on a wildcard principal beats everything it matches.
    added(grants, row(u"**"_s, u"mcp:*"_s, u"corp/eng"_s, Effect::Deny));
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:anything"_s, u"corp/eng"_s));
    // A param-narrowed deny denies only the calls it matches.
    added(grants,
          row(u"corp"_s, u"mcp:post"_s, u"corp/**"_s, Effect::Deny, {{u"jid"_s, u"public:*"_s}}));
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:post"_s, u"corp/ops"_s, {{u"jid"_s, u"public:x"_s}}));
    QVERIFY(allowed(grants, u"corp"_s, u"mcp:post"_s, u"corp/ops"_s, {{u"jid"_s, u"team:x"_s}}));
}

void GrantsTest::membershipIsTransitive()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QVERIFY(grants.addMembership(u"corp/eng"_s, u"role:dev"_s, u"test"_s).ok());
    QVERIFY(grants.addMembership(u"role:dev"_s, u"role:builder"_s, u"test"_s).ok());
    QVERIFY(grants.addMembership(u"role:builder"_s, u"role:deployer"_s, u"test"_s).ok());
    QVERIFY(!allowed(grants, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/eng"_s));
    added(grants, row(u"role:deployer"_s, u"mcp:deploy"_s, u"corp/**"_s));
    QVERIFY(allowed(grants, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/eng"_s));
    QCOMPARE(*grants.expand(u"corp/eng"_s),
             (QStringList{u"corp/eng"_s, u"role:dev"_s, u"role:builder"_s, u"role:deployer"_s}));
    // Membership is one-way: the role does not gain the member's grants.
    added(grants, row(u"corp/eng"_s, u"mcp:only_eng"_s, u"**"_s));
    QVERIFY(!allowed(grants, u"role:deployer"_s, u"mcp:only_eng"_s, u"corp/eng"_s));
    QVERIFY(grants.removeMembership(u"role:dev"_s, u"role:builder"_s, u"test"_s).ok());
    QVERIFY(!allowed(grants, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/eng"_s));
}

void GrantsTest::membershipCyclesTerminate()
{
    PolicyFixture fixture;
    // A cycle written behind the API's back (a hand edit, another tool) must not
    // hang or crash evaluation.
    PolicyFixture::exec(fixture.store().database(),
                        u"INSERT INTO acl_membership (child, parent) VALUES "
                        u"('role:a', 'role:b'), ('role:b', 'role:c'), ('role:c', 'role:a'), "
                        u"('role:c', 'role:c')"_s);
    Grants &grants = fixture.grants();
    added(grants, row(u"role:c"_s, u"mcp:x"_s, u"**"_s));
    QVERIFY(allowed(grants, u"role:a"_s, u"mcp:x"_s, u"any"_s));
    QCOMPARE(grants.expand(u"role:a"_s)->size(), 3);
    QVERIFY(!allowed(grants, u"role:a"_s, u"mcp:y"_s, u"any"_s));
}

void GrantsTest::membershipWritesRefuseCycles()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QVERIFY(grants.addMembership(u"role:a"_s, u"role:b"_s, u"test"_s).ok());
    QVERIFY(grants.addMembership(u"role:b"_s, u"role:c"_s, u"test"_s).ok());
    const auto cycle = grants.addMembership(u"role:c"_s, u"role:a"_s, u"test"_s);
    QVERIFY(!cycle.ok());
    QCOMPARE(cycle.error().code, u"policy.membership-cycle"_s);
    QCOMPARE(grants.addMembership(u"role:a"_s, u"role:a"_s, u"test"_s).error().code,
             u"policy.membership-cycle"_s);
    QCOMPARE(grants.addMembership(u"corp/*"_s, u"role:a"_s, u"test"_s).error().code,
             u"policy.bad-membership"_s);
    QCOMPARE(grants.removeMembership(u"role:a"_s, u"role:z"_s, u"test"_s).error().code,
             u"policy.no-such-membership"_s);
}

void GrantsTest::wildcardPrincipals()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    added(grants, row(u"corp/*"_s, u"mcp:status"_s, u"**"_s));
    QVERIFY(allowed(grants, u"corp/eng"_s, u"mcp:status"_s, u"corp/eng"_s));
    QVERIFY(!allowed(grants, u"corp/eng/sre"_s, u"mcp:status"_s, u"corp/eng"_s));
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:status"_s, u"corp"_s));
    // A wildcard principal also matches what a principal is a member of.
    added(grants, row(u"role:*"_s, u"mcp:ping"_s, u"**"_s));
    QVERIFY(!allowed(grants, u"solo"_s, u"mcp:ping"_s, u"solo"_s));
    QVERIFY(grants.addMembership(u"solo"_s, u"role:x"_s, u"test"_s).ok());
    QVERIFY(allowed(grants, u"solo"_s, u"mcp:ping"_s, u"solo"_s));
}

void GrantsTest::predicatesOnlyNarrow()
{
    PolicyFixture fixture;
    PolicyFixture::exec(
        fixture.store().database(),
        u"INSERT INTO acl (principal, action, scope, effect, predicate, granted_at) "
        u"VALUES ('corp', 'mcp:a', '**', 'allow', 'github:org=acme', 'now'), "
        u"('corp', 'mcp:b', '**', 'allow', '', 'now'), "
        u"('corp', 'mcp:b', '**', 'deny', 'github:org=acme', 'now')"_s);
    QVERIFY(!allowed(fixture.grants(), u"corp"_s, u"mcp:a"_s, u"corp"_s));
    QVERIFY(!allowed(fixture.grants(), u"corp"_s, u"mcp:b"_s, u"corp"_s));
}

void GrantsTest::seedsEveryFolderAsMember()
{
    PolicyFixture fixture;
    fixture.addFolder(u"corp"_s);
    fixture.addFolder(u"corp/eng"_s);
    Grants &grants = fixture.grants();
    QVERIFY(grants.expand(u"corp/eng"_s)->contains(u"role:member"_s));
    for (const QString &tool : kMessagingTools)
        QVERIFY2(allowed(grants, u"corp/eng"_s, tool, u"corp/eng"_s), qPrintable(tool));
    QVERIFY(!allowed(grants, u"corp/eng"_s, u"mcp:register_group"_s, u"corp/eng"_s));
    QVERIFY(!allowed(grants, u"corp/eng"_s, u"egress"_s, u"corp/eng"_s));
    // A principal that is no folder is nobody's member.
    QVERIFY(!allowed(grants, u"stranger"_s, u"mcp:send"_s, u"stranger"_s));
    // Removing the folder removes its membership with it.
    PolicyFixture::exec(fixture.store().database(), u"DELETE FROM groups WHERE folder = 'corp'"_s);
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:send"_s, u"corp"_s));
}

void GrantsTest::effectiveActions()
{
    PolicyFixture fixture;
    fixture.addFolder(u"corp"_s);
    Grants &grants = fixture.grants();
    QCOMPARE(*grants.effectiveActions(u"corp"_s, u"corp"_s), kMessagingTools);
    // A tool granted elsewhere shows up only where its scope reaches.
    added(grants, row(u"corp"_s, u"mcp:deploy"_s, u"corp/prod"_s));
    QVERIFY(!grants.effectiveActions(u"corp"_s, u"corp"_s)->contains(u"mcp:deploy"_s));
    QVERIFY(grants.effectiveActions(u"corp"_s, u"corp/prod"_s)->contains(u"mcp:deploy"_s));
    // The default catalogue is every tool some row names, mcp:* not being one.
    QStringList catalogue = kMessagingTools;
    catalogue << u"mcp:deploy"_s;
    catalogue.sort();
    QCOMPARE(*grants.toolCatalogue(), catalogue);
    // An unconditional deny hides a tool; a param-narrowed deny does not.
    added(grants, row(u"corp"_s, u"mcp:like"_s, u"**"_s, Effect::Deny));
    added(grants, row(u"corp"_s, u"mcp:send"_s, u"**"_s, Effect::Deny, {{u"jid"_s, u"x:*"_s}}));
    const QStringList visible = *grants.effectiveActions(u"corp"_s, u"corp"_s);
    QVERIFY(!visible.contains(u"mcp:like"_s));
    QVERIFY(visible.contains(u"mcp:send"_s));
    // Wildcard rows are expanded over the catalogue the caller knows.
    added(grants, row(u"corp"_s, u"mcp:*"_s, u"corp"_s));
    QCOMPARE(*grants.effectiveActions(u"corp"_s, u"corp"_s,
                                      {u"mcp:like"_s, u"mcp:shell"_s, u"mcp:read"_s}),
             (QStringList{u"mcp:read"_s, u"mcp:shell"_s}));
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
        << u"corp/eng"_s << u"mcp:build"_s << u"corp/eng/**"_s << false << QString() << QString();
    QTest::newRow("admin itself, narrower scope")
        << u"corp/eng"_s << u"admin"_s << u"corp/eng"_s << false << QString() << QString();
    QTest::newRow("mcp:* under admin")
        << u"corp/eng"_s << u"mcp:*"_s << u"corp/eng/*"_s << false << QString() << QString();
    QTest::newRow("mcp:* reaching own deny") << u"corp/eng"_s << u"mcp:*"_s << u"corp/*"_s << false
                                             << QString() << u"itself is denied"_s;
    QTest::newRow("params narrowed")
        << u"corp/eng"_s << u"mcp:notify"_s << u"corp/eng"_s << false << u"team:eng"_s << QString();
    QTest::newRow("wider scope") << u"corp/eng"_s << u"mcp:build"_s << u"**"_s << false << QString()
                                 << u"WITH GRANT OPTION"_s;
    QTest::newRow("sibling scope") << u"corp/eng"_s << u"mcp:build"_s << u"corporate"_s << false
                                   << QString() << u"WITH GRANT OPTION"_s;
    QTest::newRow("higher action")
        << u"corp/eng"_s << u"*"_s << u"corp/eng"_s << false << QString() << u"WITH GRANT OPTION"_s;
    QTest::newRow("held without grant option") << u"corp/eng"_s << u"egress"_s << u"corp"_s << false
                                               << QString() << u"WITH GRANT OPTION"_s;
    QTest::newRow("deny row") << u"corp/eng"_s << u"mcp:build"_s << u"corp/eng"_s << true
                              << QString() << u"deny row"_s;
    QTest::newRow("wildcard principal") << u"corp/*"_s << u"mcp:build"_s << u"corp/eng"_s << false
                                        << QString() << u"wildcard principal"_s;
    QTest::newRow("everyone") << u"**"_s << u"mcp:build"_s << u"corp/eng"_s << false << QString()
                              << u"wildcard principal"_s;
    QTest::newRow("past own deny") << u"corp/eng"_s << u"mcp:deploy"_s << u"corp/**"_s << false
                                   << QString() << u"itself is denied"_s;
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
    added(grants, row(u"corp"_s, u"admin"_s, u"corp/**"_s, Effect::Allow, {}, true));
    added(grants, row(u"corp"_s, u"mcp:notify"_s, u"corp/**"_s, Effect::Allow,
                      {{u"jid"_s, u"team:*"_s}}, true));
    added(grants, row(u"corp"_s, u"egress"_s, u"corp"_s));
    added(grants, row(u"corp"_s, u"mcp:deploy"_s, u"corp/prod"_s, Effect::Deny));
    const qsizetype rowsBefore = grants.list()->size();

    GrantParams params;
    if (!jid.isEmpty())
        params.insert(u"jid"_s, jid);
    const auto result = grants.delegate(
        u"corp"_s, row(principal, action, scope, deny ? Effect::Deny : Effect::Allow, params));
    if (refusal.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
        QCOMPARE(result->grantedBy, u"corp"_s);
        QCOMPARE(grants.list()->size(), rowsBefore + 1);
    } else {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, u"policy.delegation-refused"_s);
        QVERIFY2(result.error().message.contains(refusal), qPrintable(result.error().message));
        QCOMPARE(grants.list()->size(), rowsBefore);
    }
}

void GrantsTest::revokeTakesEffectOnNextCall()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    const Grant grant = added(grants, row(u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
    QVERIFY(allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));

    // Another connection (as another process would) revokes: the next call denies.
    auto other = arizuko::store::Store::open(fixture.dataDir());
    QVERIFY(other.ok());
    arizuko::policy::Policy otherPolicy(**other);
    QVERIFY(otherPolicy.grants().remove(grant.id, u"test"_s).ok());
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));

    // The other connection grants again, then denies: each shows at once.
    added(otherPolicy.grants(), row(u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
    QVERIFY(allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
    added(otherPolicy.grants(), row(u"corp"_s, u"mcp:deploy"_s, u"**"_s, Effect::Deny));
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));

    // A raw SQL write on the same connection, bypassing Grants, is seen too.
    PolicyFixture::exec(fixture.store().database(), u"DELETE FROM acl WHERE effect = 'deny'"_s);
    QVERIFY(allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
    PolicyFixture::exec(fixture.store().database(),
                        u"UPDATE acl SET scope = 'elsewhere' WHERE action = 'mcp:deploy'"_s);
    QVERIFY(!allowed(grants, u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
}

void GrantsTest::writesAreValidated()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    QCOMPARE(grants.add(row(u""_s, u"admin"_s, u"corp"_s), u"t"_s).error().code,
             u"policy.bad-principal"_s);
    QCOMPARE(grants.add(row(u"corp eng"_s, u"admin"_s, u"corp"_s), u"t"_s).error().code,
             u"policy.bad-principal"_s);
    QCOMPARE(grants.add(row(u"corp"_s, u"mcp:"_s, u"corp"_s), u"t"_s).error().code,
             u"policy.bad-action"_s);
    for (const QString &scope : {u""_s, u"/corp"_s, u"corp/"_s, u"corp//eng"_s, u"corp/.."_s}) {
        const auto result = grants.add(row(u"corp"_s, u"admin"_s, scope), u"t"_s);
        QVERIFY2(!result.ok(), qPrintable(scope));
        QCOMPARE(result.error().code, u"policy.bad-scope"_s);
        QVERIFY(result.error().message.contains(u"corp/**"_s));
    }
    Grant withPredicate = row(u"corp"_s, u"admin"_s, u"corp"_s);
    withPredicate.predicate = u"github:org=acme"_s;
    QCOMPARE(grants.add(withPredicate, u"t"_s).error().code, u"policy.bad-predicate"_s);
    QCOMPARE(grants.remove(9999, u"t"_s).error().code, u"policy.no-such-grant"_s);

    // What could only hide what a row says: control and format characters
    // (U+202E reverses a listing) and lengths no folder or tool has.
    const qsizetype before = grants.list()->size();
    for (const QString &hostile : {u"corp\u202Eeng"_s, u"corp\x01"_s, u"corp\neng"_s,
                                   QString(300, u'a')}) {
        QCOMPARE(grants.add(row(hostile, u"admin"_s, u"corp"_s), u"t"_s).error().code,
                 u"policy.bad-principal"_s);
        QCOMPARE(grants.add(row(u"corp"_s, u"admin"_s, hostile), u"t"_s).error().code,
                 u"policy.bad-scope"_s);
        Grant withParam = row(u"corp"_s, u"mcp:send"_s, u"corp"_s);
        withParam.params.insert(u"jid"_s, hostile);
        QCOMPARE(grants.add(withParam, u"t"_s).error().code, u"policy.bad-params"_s);
    }
    QCOMPARE(grants.add(row(u"corp"_s, u"mcp:"_s + QString(200, u'a'), u"corp"_s), u"t"_s)
                 .error().code,
             u"policy.bad-action"_s);
    QCOMPARE(grants.list()->size(), before);
}

void GrantsTest::addingTheSameRowTwiceKeepsOne()
{
    PolicyFixture fixture;
    Grants &grants = fixture.grants();
    const qsizetype before = grants.list()->size();
    const Grant first = added(grants, row(u"corp"_s, u"admin"_s, u"corp"_s));
    const Grant second = added(grants, row(u"corp"_s, u"admin"_s, u"corp"_s));
    QCOMPARE(second.id, first.id);
    QCOMPARE(grants.list()->size(), before + 1);
    const Grant deny = added(grants, row(u"corp"_s, u"admin"_s, u"corp"_s, Effect::Deny));
    QVERIFY(deny.id != first.id);
}

void GrantsTest::listShowsRowsThatApply()
{
    PolicyFixture fixture;
    fixture.addFolder(u"corp"_s);
    Grants &grants = fixture.grants();
    const Grant own = added(grants, row(u"corp"_s, u"admin"_s, u"corp"_s));
    const Grant wildcard = added(grants, row(u"c*"_s, u"mcp:x"_s, u"**"_s));
    added(grants, row(u"other"_s, u"admin"_s, u"other"_s));
    const auto applying = grants.list(u"corp"_s);
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
    const Grant grant = added(grants, row(u"corp"_s, u"mcp:deploy"_s, u"corp"_s));
    QVERIFY(grants.addMembership(u"corp"_s, u"role:ops"_s, u"alice"_s).ok());
    QVERIFY(grants.remove(grant.id, u"alice"_s).ok());
    QCOMPARE(entries(u"grant.add"_s).size(), 1);
    QCOMPARE(entries(u"grant.add"_s).first().detail.value(u"id"_s).toInteger(), grant.id);
    QCOMPARE(entries(u"grant.member.add"_s).first().actor, u"alice"_s);
    QCOMPARE(entries(u"grant.remove"_s).first().subject, u"corp"_s);

    // authorize() is a pure question; decide() is a call and is recorded.
    QVERIFY(grants.authorize(u"corp"_s, u"mcp:deploy"_s, u"corp"_s).ok());
    QVERIFY(entries(u"grant.decision"_s).isEmpty());
    QVERIFY(!grants.decide(u"corp"_s, u"mcp:deploy"_s, u"corp"_s, {{u"token"_s, u"s3cr3t"_s}})
                 ->allowed);
    const auto decisions = entries(u"grant.decision"_s);
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().detail.value(u"allowed"_s).toBool(), false);
    QCOMPARE(decisions.first().detail.value(u"param_names"_s).toArray().first().toString(),
             u"token"_s);
    QVERIFY(!QJsonDocument(decisions.first().detail).toJson().contains("s3cr3t"));

    // A refused write leaves no audit entry and no row.
    const qsizetype before = entries(u"grant"_s).size();
    QVERIFY(!grants.delegate(u"corp"_s, row(u"x"_s, u"admin"_s, u"x"_s)).ok());
    QCOMPARE(entries(u"grant"_s).size(), before);
}

QTEST_MAIN(GrantsTest)
#include "test_grants.moc"
