// Times authorize() and resolve() against a real SQLite file: 10,000 acl rows
// with 100 memberships, and a folder at depth 8 under 1,000 network rules.
// Every timed call includes the live-ness check (one read of policy_generation),
// exactly as in production. Prints figures, targets and PASS/MISS; exits 1 on a MISS.

#include "policy/policy.h"
#include "store/store.h"
#include "store/write_transaction.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QTextStream>
#include <algorithm>
#include <functional>
#include <vector>

using namespace arizuko;

namespace {

constexpr int kAclRows = 10'000;
constexpr int kMemberships = 100;
constexpr int kNetworkRules = 1'000;
constexpr int kFolderDepth = 8;
constexpr int kWarmup = 2'000;
constexpr int kSamples = 50'000;
constexpr double kAuthorizeTargetUs = 20.0;
constexpr double kResolveTargetUs = 50.0;

QTextStream out(stdout);

void execOrDie(QSqlQuery &query)
{
    if (!query.exec())
        qFatal("%s: %s", qPrintable(query.lastQuery()), qPrintable(query.lastError().text()));
}

// 100 roles in a lattice of memberships; the folders the benchmark asks about
// belong to some of them. Rows are spread over 1,000 folder principals and the
// roles, with every action form, scope glob, deny rows and param-narrowed rows.
void populateGrants(QSqlDatabase db, QRandomGenerator &random)
{
    auto transaction = store::WriteTransaction::begin(db);
    if (!transaction)
        qFatal("%s", qPrintable(transaction.error().message));
    QSqlQuery existing(db);
    existing.prepare(QStringLiteral("SELECT count(*) FROM acl"));
    execOrDie(existing);
    existing.next();
    const int seeded = existing.value(0).toInt();
    existing.finish();

    QSqlQuery acl(db);
    acl.prepare(
        QStringLiteral("INSERT INTO acl (principal, action, scope, effect, params, granted_by, "
                       "granted_at) VALUES (?, ?, ?, ?, ?, 'bench', '2026-01-01T00:00:00.000Z')"));
    const QStringList scopeForms = {QStringLiteral("%1"), QStringLiteral("%1/*"),
                                    QStringLiteral("%1/**"), QStringLiteral("**")};
    for (int i = seeded; i < kAclRows; ++i) {
        const bool toRole = i % 5 == 0;
        const int owner = int(random.bounded(toRole ? 100 : 1000));
        const QString principal = toRole ? QStringLiteral("role:r%1").arg(owner)
                                         : QStringLiteral("org%1/team").arg(owner);
        const int kind = int(random.bounded(10));
        const QString action = kind == 0   ? QStringLiteral("admin")
                               : kind == 1 ? QStringLiteral("mcp:*")
                               : kind == 2 ? QStringLiteral("interact")
                                           : QStringLiteral("mcp:tool%1").arg(random.bounded(200));
        const QString scopeForm = scopeForms.at(int(random.bounded(scopeForms.size())));
        const QString scope =
            scopeForm == u"**" ? scopeForm
                               : scopeForm.arg(QStringLiteral("org%1").arg(random.bounded(1000)));
        acl.addBindValue(principal);
        acl.addBindValue(action);
        acl.addBindValue(scope);
        acl.addBindValue(random.bounded(8) == 0 ? QStringLiteral("deny") : QStringLiteral("allow"));
        acl.addBindValue(random.bounded(6) == 0 ? QStringLiteral("{\"jid\":\"telegram:*\"}")
                                                : QStringLiteral("{}"));
        execOrDie(acl);
    }
    QSqlQuery membership(db);
    membership.prepare(
        QStringLiteral("INSERT OR IGNORE INTO acl_membership (child, parent) VALUES (?, ?)"));
    int edges = 0;
    // Each of the 40 benchmark folders joins 1 role; roles join higher roles, so
    // an expansion walks several levels (acyclic: a role only joins higher ones).
    for (int folder = 0; folder < 40; ++folder, ++edges) {
        membership.addBindValue(QStringLiteral("org%1/team").arg(folder));
        membership.addBindValue(QStringLiteral("role:r%1").arg(folder % 20));
        execOrDie(membership);
    }
    for (int role = 0; edges < kMemberships; ++role, ++edges) {
        membership.addBindValue(QStringLiteral("role:r%1").arg(role % 60));
        membership.addBindValue(
            QStringLiteral("role:r%1").arg(role % 60 + 1 + int(random.bounded(39))));
        execOrDie(membership);
    }
    if (auto committed = transaction->commit(); !committed)
        qFatal("%s", qPrintable(committed.error().message));
}

QString deepFolder()
{
    QStringList segments;
    for (int level = 1; level <= kFolderDepth; ++level)
        segments << QStringLiteral("d%1").arg(level);
    return segments.join(u'/');
}

void populateNetworkRules(QSqlDatabase db, QRandomGenerator &random)
{
    auto transaction = store::WriteTransaction::begin(db);
    if (!transaction)
        qFatal("%s", qPrintable(transaction.error().message));
    QStringList ancestry{QStringLiteral("")}; // '' binds as text, not NULL
    const QStringList segments = deepFolder().split(u'/');
    for (int level = 1; level <= kFolderDepth; ++level)
        ancestry << segments.first(level).join(u'/');
    QSqlQuery rule(db);
    rule.prepare(QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at) "
                                "VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z')"));
    for (int i = 0; i < kNetworkRules; ++i) {
        // Half on the benchmark folder's ancestry (some duplicated across levels,
        // as real inheritance does), half on unrelated folders.
        const bool onAncestry = i % 2 == 0;
        rule.addBindValue(onAncestry ? ancestry.at(i % ancestry.size())
                                     : QStringLiteral("other%1").arg(random.bounded(200)));
        rule.addBindValue(QStringLiteral("host%1.example.com").arg(onAncestry ? i % 400 : i));
        rule.addBindValue(i % 10 == 0 ? QStringLiteral("deny") : QStringLiteral("allow"));
        execOrDie(rule);
    }
    if (auto committed = transaction->commit(); !committed)
        qFatal("%s", qPrintable(committed.error().message));
}

struct Figures
{
    double medianUs = 0;
    double p99Us = 0;
};

Figures measure(const std::function<void(int)> &call)
{
    for (int i = 0; i < kWarmup; ++i)
        call(i);
    std::vector<qint64> samples(kSamples);
    QElapsedTimer timer;
    for (int i = 0; i < kSamples; ++i) {
        timer.start();
        call(i);
        samples[size_t(i)] = timer.nsecsElapsed();
    }
    std::sort(samples.begin(), samples.end());
    return Figures{samples[samples.size() / 2] / 1000.0,
                   samples[samples.size() * 99 / 100] / 1000.0};
}

bool report(const QString &what, const Figures &figures, double targetUs)
{
    const bool pass = figures.medianUs <= targetUs;
    out << what.leftJustified(44)
        << QStringLiteral("median %1 us  p99 %2 us  (target median <= %3 us)  %4\n")
               .arg(figures.medianUs, 0, 'f', 2)
               .arg(figures.p99Us, 0, 'f', 2)
               .arg(targetUs, 0, 'f', 0)
               .arg(pass ? QStringLiteral("PASS") : QStringLiteral("MISS"));
    return pass;
}

void info(const QString &what, const Figures &figures)
{
    out << what.leftJustified(44)
        << QStringLiteral("median %1 us  p99 %2 us  (for information)\n")
               .arg(figures.medianUs, 0, 'f', 2)
               .arg(figures.p99Us, 0, 'f', 2);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    const QStringList arguments = application.arguments();
    if (arguments.size() != 2) {
        QTextStream(stderr) << "usage: policy-bench DATA_DIR (an empty directory on disk)\n";
        return 2;
    }
    auto opened = store::Store::open(arguments.at(1));
    if (!opened) {
        QTextStream(stderr) << opened.error().message << "\n";
        return 1;
    }
    store::Store &store = **opened;
    QRandomGenerator random(20261201);
    populateGrants(store.database(), random);
    populateNetworkRules(store.database(), random);

    policy::Policy policy(store);
    out << QStringLiteral(
               "policy benchmark on %1 (%2 acl rows, %3 memberships, %4 network rules)\n")
               .arg(store.databasePath())
               .arg(policy.grants().list()->size())
               .arg(policy.grants().memberships()->size())
               .arg(policy.network().list()->size());

    // A fixed pseudo-random workload of principals, actions and scopes.
    struct Question
    {
        QString principal, action, scope;
        policy::CallParams params;
    };
    std::vector<Question> questions;
    int allowedCount = 0;
    for (int i = 0; i < 1024; ++i) {
        const int folder = int(random.bounded(40));
        Question question{QStringLiteral("org%1/team").arg(folder),
                          i % 7 == 0 ? QStringLiteral("interact")
                                     : QStringLiteral("mcp:tool%1").arg(random.bounded(200)),
                          QStringLiteral("org%1/team").arg(random.bounded(1000)),
                          {{QStringLiteral("jid"),
                            i % 2 ? QStringLiteral("telegram:1") : QStringLiteral("discord:1")}}};
        allowedCount +=
            policy.grants()
                .authorize(question.principal, question.action, question.scope, question.params)
                ->allowed;
        questions.push_back(std::move(question));
    }
    out << QStringLiteral(
               "workload: 1024 distinct questions, %1 allowed, %2 denied; %3 timed calls each\n")
               .arg(allowedCount)
               .arg(1024 - allowedCount)
               .arg(kSamples);

    bool pass = true;
    pass &= report(QStringLiteral("authorize() incl. live-ness check"), measure([&](int i) {
                       const Question &q = questions[size_t(i) % questions.size()];
                       if (!policy.grants().authorize(q.principal, q.action, q.scope, q.params))
                           qFatal("authorize failed");
                   }),
                   kAuthorizeTargetUs);

    const QString folder = deepFolder();
    const auto resolved = policy.network().resolve(folder);
    out << QStringLiteral("resolve(%1): %2 allow + %3 deny entries from %4 rules on its ancestry\n")
               .arg(folder)
               .arg(resolved->allow.size())
               .arg(resolved->deny.size())
               .arg(resolved->rules.size());
    pass &= report(QStringLiteral("resolve() at depth 8 incl. live-ness check"), measure([&](int) {
                       if (!policy.network().resolve(folder))
                           qFatal("resolve failed");
                   }),
                   kResolveTargetUs);

    // The same walk for a depth-8 folder never asked about before, so the union
    // is computed instead of found in the snapshot's per-folder memo.
    const QString parent = folder.section(u'/', 0, kFolderDepth - 2);
    int fresh = 0;
    info(QStringLiteral("resolve() at depth 8, first ask per folder"), measure([&](int) {
             if (!policy.network().resolve(parent + QStringLiteral("/new%1").arg(fresh++)))
                 qFatal("resolve failed");
         }));

    info(QStringLiteral("decide() = authorize() + audit-log write"), measure([&](int i) {
             const Question &q = questions[size_t(i) % questions.size()];
             if (!policy.grants().decide(q.principal, q.action, q.scope, q.params))
                 qFatal("decide failed");
         }));

    // What a revoke costs the next caller: the whole snapshot is reloaded.
    QElapsedTimer reload;
    std::vector<qint64> reloads;
    for (int i = 0; i < 20; ++i) {
        policy::Grant grant;
        grant.principal = QStringLiteral("org0/team");
        grant.action = QStringLiteral("mcp:bench_reload");
        grant.scope = QStringLiteral("org%1").arg(i);
        if (!policy.grants().add(grant, QStringLiteral("bench")))
            qFatal("add failed");
        reload.start();
        if (!policy.grants().authorize(QStringLiteral("org0/team"), QStringLiteral("mcp:x"),
                                       QStringLiteral("org0")))
            qFatal("authorize failed");
        reloads.push_back(reload.nsecsElapsed());
    }
    std::sort(reloads.begin(), reloads.end());
    out << QStringLiteral("first authorize() after a grant change").leftJustified(44)
        << QStringLiteral("median %1 ms (snapshot reload; for information)\n")
               .arg(reloads[reloads.size() / 2] / 1e6, 0, 'f', 2);
    out << (pass ? QStringLiteral("RESULT: PASS\n") : QStringLiteral("RESULT: MISS\n"));
    out.flush();
    return pass ? 0 : 1;
}
