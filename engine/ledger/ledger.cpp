#include "ledger/ledger.h"

#include "audit/audit_log.h"
#include "store/kept_statement.h"
#include "store/query.h"
#include "store/store.h"
#include "store/write_transaction.h"

#include <QDateTime>
#include <QJsonObject>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

namespace arizuko::ledger {
namespace {

// The columns in the order rowFrom() reads them.
const QString columns = QStringLiteral(
    "id, time, turn, event_seq, folder, topic, client, source, method, host, port, path, "
    "decision, reason, rule_id, rule_text, rule_folder, status, bytes_up, bytes_down, "
    "duration_ms, asked, answer");

// Rows deleted per transaction by prune().
constexpr int pruneBatch = 5000;

// A column that is never NULL: a null QString binds as NULL.
QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

template<typename T>
QVariant nullable(const std::optional<T> &value)
{
    return value ? QVariant::fromValue(*value) : QVariant(QMetaType::fromType<T>());
}

// A present text is never NULL, an empty one (the base folder '') included.
QVariant nullable(const std::optional<QString> &value)
{
    return value ? text(*value) : QVariant(QMetaType::fromType<QString>());
}

template<typename T>
std::optional<T> optionalAt(const QSqlQuery &query, int column)
{
    const QVariant value = query.value(column);
    if (value.isNull())
        return std::nullopt;
    return value.value<T>();
}

LedgerEntry rowFrom(const QSqlQuery &query)
{
    LedgerEntry entry;
    entry.id = query.value(0).toLongLong();
    entry.time = query.value(1).toString();
    entry.turn = query.value(2).toString();
    entry.eventSeq = query.value(3).toLongLong();
    entry.folder = query.value(4).toString();
    entry.topic = query.value(5).toString();
    entry.client = query.value(6).toString();
    entry.source = query.value(7).toString();
    entry.method = query.value(8).toString();
    entry.host = query.value(9).toString();
    entry.port = query.value(10).toInt();
    entry.path = optionalAt<QString>(query, 11);
    entry.decision = query.value(12).toString();
    entry.reason = query.value(13).toString();
    entry.ruleId = optionalAt<qint64>(query, 14);
    entry.ruleText = optionalAt<QString>(query, 15);
    entry.ruleFolder = optionalAt<QString>(query, 16);
    entry.status = optionalAt<int>(query, 17);
    entry.bytesUp = optionalAt<qint64>(query, 18);
    entry.bytesDown = optionalAt<qint64>(query, 19);
    entry.durationMs = optionalAt<qint64>(query, 20);
    entry.asked = query.value(21).toBool();
    entry.answer = optionalAt<QString>(query, 22);
    return entry;
}

QString cutoff(const QString &now, int days)
{
    return QDateTime::fromString(now, Qt::ISODateWithMs)
        .addDays(-days)
        .toUTC()
        .toString(Qt::ISODateWithMs);
}

} // namespace

Ledger::Ledger(store::Store &store)
    : m_store(store)
{}

Result<void> Ledger::apply(const QList<LedgerWrite> &writes)
{
    const QSqlDatabase db = m_store.database();
    for (const LedgerWrite &write : writes) {
        const LedgerEntry &e = write.entry;
        // One write per log line: kept prepared on the connection, not parsed again per row.
        const Result<int> done =
            write.kind == LedgerWrite::Kind::Insert
                ? store::executeKept(
                      db,
                      QStringLiteral(
                          "INSERT INTO egress_ledger (time, turn, event_seq, folder, "
                          "topic, client, source, method, host, port, path, decision, reason, "
                          "rule_id, rule_text, rule_folder, status, bytes_up, bytes_down, "
                          "duration_ms, asked, answer) VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                          "ON CONFLICT (turn, event_seq) DO NOTHING"),
                      {text(e.time),
                       text(e.turn),
                       e.eventSeq,
                       text(e.folder),
                       text(e.topic),
                       text(e.client),
                       text(e.source),
                       text(e.method),
                       text(e.host),
                       e.port,
                       nullable(e.path),
                       text(e.decision),
                       text(e.reason),
                       nullable(e.ruleId),
                       nullable(e.ruleText),
                       nullable(e.ruleFolder),
                       nullable(e.status),
                       nullable(e.bytesUp),
                       nullable(e.bytesDown),
                       nullable(e.durationMs),
                       e.asked,
                       nullable(e.answer)})
                : store::executeKept(db,
                                     QStringLiteral("UPDATE egress_ledger SET bytes_up = ?, "
                                                    "bytes_down = ?, duration_ms = ? "
                                                    "WHERE turn = ? AND event_seq = ?"),
                                     {nullable(e.bytesUp), nullable(e.bytesDown),
                                      nullable(e.durationMs), e.turn, e.eventSeq});
        if (!done)
            return done.error();
    }
    return {};
}

Result<void> Ledger::write(const QList<LedgerWrite> &writes)
{
    auto transaction = store::WriteTransaction::begin(m_store.database());
    if (!transaction)
        return transaction.error();
    if (const Result<void> applied = apply(writes); !applied)
        return applied;
    return transaction->commit();
}

namespace {

// The WHERE clause of filter's folder, turn, since and decision, with its
// bindings (empty when nothing narrows).
QString whereOf(const LedgerFilter &filter, QVariantList &bindings)
{
    QStringList where;
    if (filter.folder) {
        where << QStringLiteral("folder = ?");
        bindings << *filter.folder;
    }
    if (!filter.turn.isEmpty()) {
        where << QStringLiteral("turn = ?");
        bindings << filter.turn;
    }
    if (!filter.since.isEmpty()) {
        where << QStringLiteral("time >= ?");
        bindings << filter.since;
    }
    if (!filter.decision.isEmpty()) {
        where << QStringLiteral("decision = ?");
        bindings << filter.decision;
    }
    if (filter.oldestFirst) {
        where << QStringLiteral("id > ?");
        bindings << filter.afterId;
    } else if (filter.beforeId > 0) {
        where << QStringLiteral("id < ?");
        bindings << filter.beforeId;
    }
    return where.isEmpty() ? QString()
                           : QStringLiteral("WHERE ") + where.join(QStringLiteral(" AND "));
}

} // namespace

Result<QList<LedgerEntry>> Ledger::page(const LedgerFilter &filter)
{
    QVariantList bindings;
    const QString where = whereOf(filter, bindings);
    bindings << filter.limit;
    Result<QSqlQuery> query = store::execute(
        m_store.database(),
        QStringLiteral("SELECT %1 FROM egress_ledger %2 ORDER BY id %3 LIMIT ?")
            .arg(columns, where,
                 filter.oldestFirst ? QStringLiteral("ASC") : QStringLiteral("DESC")),
        bindings);
    if (!query)
        return query.error();
    QList<LedgerEntry> entries;
    while (query->next())
        entries << rowFrom(*query);
    return entries;
}

Result<qint64> Ledger::count(const LedgerFilter &filter)
{
    QVariantList bindings;
    const QString where = whereOf(filter, bindings);
    Result<QSqlQuery> query = store::execute(
        m_store.database(), QStringLiteral("SELECT COUNT(*) FROM egress_ledger %1").arg(where),
        bindings);
    if (!query)
        return query.error();
    return query->next() ? query->value(0).toLongLong() : 0;
}

Result<int> Ledger::retentionDays(const QString &folder)
{
    Result<QSqlQuery> query = store::execute(
        m_store.database(),
        QStringLiteral("SELECT days FROM egress_ledger_retention WHERE folder = ?"), {folder});
    if (!query)
        return query.error();
    return query->next() ? query->value(0).toInt() : defaultRetentionDays;
}

Result<void> Ledger::setRetentionDays(const QString &folder, int days, const QString &actor)
{
    if (days < 1 || days > maxRetentionDays)
        return makeError(QStringLiteral("ledger.retention"),
                         QStringLiteral("a ledger is kept 1 to %1 days, not %2")
                             .arg(maxRetentionDays)
                             .arg(days));
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        const Result<QSqlQuery> done = store::execute(
            m_store.database(),
            QStringLiteral("INSERT INTO egress_ledger_retention (folder, days) VALUES (?, ?) "
                           "ON CONFLICT (folder) DO UPDATE SET days = excluded.days"),
            {folder, days});
        if (!done)
            return done.error();
        if (const Result<qint64> audited = log.record(actor, QStringLiteral("ledger.retention"),
                                                      folder, {{QStringLiteral("days"), days}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<qint64> Ledger::prune(const QString &now)
{
    Result<QSqlQuery> settings = store::execute(
        m_store.database(), QStringLiteral("SELECT folder, days FROM egress_ledger_retention"));
    if (!settings)
        return settings.error();
    QList<std::pair<QString, int>> retention;
    while (settings->next())
        retention.append({settings->value(0).toString(), settings->value(1).toInt()});
    settings->finish();

    qint64 deleted = 0;
    for (const auto &[folder, days] : retention) {
        const Result<qint64> pruned =
            deleteOlder(QStringLiteral("folder = ? AND time < ?"), {folder, cutoff(now, days)});
        if (!pruned)
            return pruned.error();
        deleted += *pruned;
    }
    const Result<qint64> pruned = deleteOlder(
        QStringLiteral("folder NOT IN (SELECT folder FROM egress_ledger_retention) AND time < ?"),
        {cutoff(now, defaultRetentionDays)});
    if (!pruned)
        return pruned.error();
    return deleted + *pruned;
}

Result<qint64> Ledger::deleteOlder(const QString &where, const QVariantList &bindings)
{
    qint64 deleted = 0;
    for (;;) {
        auto transaction = store::WriteTransaction::begin(m_store.database());
        if (!transaction)
            return transaction.error();
        const Result<QSqlQuery> done =
            store::execute(m_store.database(),
                           QStringLiteral("DELETE FROM egress_ledger WHERE id IN "
                                          "(SELECT id FROM egress_ledger WHERE %1 LIMIT %2)")
                               .arg(where)
                               .arg(pruneBatch),
                           bindings);
        if (!done)
            return done.error();
        const int count = done->numRowsAffected();
        if (const Result<void> committed = transaction->commit(); !committed)
            return committed.error();
        deleted += count;
        if (count < pruneBatch)
            return deleted;
    }
}

} // namespace arizuko::ledger
