#include "tools/observations.h"

#include "audit/audit_log.h"
#include "policy/policy.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "store/write_transaction.h"
#include "tools/tool_catalogue.h"

#include <QJsonObject>
#include <QSet>
#include <QStringList>
#include <QVariant>

namespace arizuko::tools {

Result<void> observe(store::Store &store, const QString &folder, const QString &topic,
                     const QString &source)
{
    const auto done = store::execute(
        store.database(),
        QStringLiteral("INSERT OR IGNORE INTO observations (observer_folder, observer_topic, "
                       "source_folder, seen_message, created_at) VALUES (?, ?, ?, "
                       "(SELECT coalesce(max(id), 0) FROM messages), ?)"),
        {folder, topic, source, store::nowTimestamp()});
    if (!done)
        return done.error();
    return {};
}

Result<bool> unobserve(store::Store &store, const QString &folder, const QString &topic,
                       const QString &source)
{
    const auto done = store::execute(
        store.database(),
        QStringLiteral("DELETE FROM observations WHERE observer_folder = ? AND observer_topic = ? "
                       "AND source_folder = ?"),
        {folder, topic, source});
    if (!done)
        return done.error();
    return done->numRowsAffected() > 0;
}

namespace {

// The sources whose messages may reach the observer now. observe_group was
// granted when the observation began; a grant revoked since then stops it
// here. A refusal is audited (observation.refused); a delivery the grants
// allow is not, since every turn start would log one per source.
Result<QSet<QString>> permittedSources(store::Store &store, const QString &folder,
                                       const QString &topic)
{
    auto sources = store::execute(
        store.database(),
        QStringLiteral("SELECT source_folder FROM observations WHERE observer_folder = ? AND "
                       "observer_topic = ?"),
        {folder, topic});
    if (!sources)
        return sources.error();
    QStringList observed;
    while (sources->next())
        observed << sources->value(0).toString();
    policy::Policy policy(store);
    audit::AuditLog audit(store);
    QSet<QString> permitted;
    for (const QString &source : std::as_const(observed)) {
        const QString action = toolAction(QStringLiteral("observe_group"));
        const auto decision = policy.grants().authorize(folder, action, source);
        if (!decision)
            return decision.error();
        if (decision->allowed) {
            permitted.insert(source);
            continue;
        }
        QJsonObject refusal{{QStringLiteral("topic"), topic},
                            {QStringLiteral("action"), action},
                            {QStringLiteral("scope"), source},
                            {QStringLiteral("reason"), decision->reason}};
        if (decision->decidingGrant)
            refusal.insert(QStringLiteral("grant"), decision->decidingGrant->id);
        if (const auto recorded =
                audit.record(folder, QStringLiteral("observation.refused"), folder, refusal);
            !recorded)
            return recorded.error();
    }
    return permitted;
}

} // namespace

Result<QString> takeObservedContext(store::Store &store, const QString &folder,
                                    const QString &topic, const ObserveCaps &caps)
{
    const auto permitted = permittedSources(store, folder, topic);
    if (!permitted)
        return permitted.error();
    // Read and advance under the write lock: two turns of one topic never
    // run at once, but another engine's observe may land in between.
    auto transaction = store::WriteTransaction::begin(store.database());
    if (!transaction)
        return transaction.error();
    // Newest first, so the caps keep the most recent messages.
    auto fresh = store::execute(
        store.database(),
        QStringLiteral(
            "SELECT m.id, m.group_folder, m.topic, m.role, m.content FROM observations o "
            "JOIN messages m ON m.group_folder = o.source_folder AND m.id > "
            "o.seen_message WHERE o.observer_folder = ? AND o.observer_topic = ? "
            "ORDER BY m.id DESC"),
        {folder, topic});
    if (!fresh)
        return fresh.error();
    QStringList lines;
    int characters = 0;
    int omitted = 0;
    while (fresh->next()) {
        // Refused messages are passed over for good: the seen mark below
        // moves past them, so a later grant does not bring them back.
        if (!permitted->contains(fresh->value(1).toString()))
            continue;
        const QString line = QStringLiteral("[%1 / %2] %3: %4")
                                 .arg(fresh->value(1).toString(), fresh->value(2).toString(),
                                      fresh->value(3).toString(), fresh->value(4).toString());
        if (lines.size() >= caps.messages || characters + line.size() > caps.characters) {
            ++omitted;
            continue;
        }
        characters += line.size();
        lines.prepend(line);
    }
    const auto seen = store::execute(
        store.database(),
        QStringLiteral("UPDATE observations SET seen_message = (SELECT coalesce(max(id), 0) FROM "
                       "messages) WHERE observer_folder = ? AND observer_topic = ?"),
        {folder, topic});
    if (!seen)
        return seen.error();
    if (const Result<void> committed = transaction->commit(); !committed)
        return committed.error();
    if (lines.isEmpty() && omitted == 0)
        return QString();
    QString block = QStringLiteral("<observed-messages>\n") + lines.join(QLatin1Char('\n'));
    if (omitted > 0)
        block += QStringLiteral("\n(%1 older messages left out: over %2 messages or %3 characters)")
                     .arg(omitted)
                     .arg(caps.messages)
                     .arg(caps.characters);
    return block + QStringLiteral("\n</observed-messages>\n\n");
}

} // namespace arizuko::tools
