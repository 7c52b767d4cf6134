#include "turn_records/turn_records.h"

#include "audit/audit_log.h"
#include "core/actors.h"
#include "store/query.h"
#include "store/store.h"
#include "store/write_transaction.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QSqlRecord>

namespace arizuko::turns {
namespace {

const QString columns = QStringLiteral(
    "id, name, group_folder, topic, agent, prompt, state, queued_at, preparing_at, booting_at, "
    "running_at, finishing_at, ended_at, deadline_at, cancel_requested_at, exit_code, error_code, "
    "error, accelerator, subnet, vm_name, network_name, proxy_pid, proxy_address, engine_pid, "
    "engine_started, cost_usd, usage");

TurnRecord recordFrom(const QSqlQuery &query)
{
    const auto text = [&query](int column) { return query.value(column).toString(); };
    TurnRecord record;
    record.id = text(0);
    record.name = text(1);
    record.folder = text(2);
    record.topic = text(3);
    record.agent = text(4);
    record.prompt = text(5);
    record.state = turnStateFromName(text(6)).value_or(TurnState::Failed);
    record.queuedAt = text(7);
    record.preparingAt = text(8);
    record.bootingAt = text(9);
    record.runningAt = text(10);
    record.finishingAt = text(11);
    record.endedAt = text(12);
    record.deadlineAt = text(13);
    record.cancelRequestedAt = text(14);
    if (!query.isNull(15))
        record.exitCode = query.value(15).toInt();
    record.errorCode = text(16);
    record.error = text(17);
    record.accelerator = text(18);
    record.subnet = text(19);
    record.vmName = text(20);
    record.networkName = text(21);
    record.proxyPid = query.value(22).toLongLong();
    record.proxyAddress = text(23);
    record.enginePid = query.value(24).toLongLong();
    record.engineStarted = text(25);
    if (!query.isNull(26))
        record.costUsd = query.value(26).toDouble();
    record.usage = QJsonDocument::fromJson(query.value(27).toByteArray()).object();
    return record;
}

} // namespace

QJsonObject TurnRecord::toJson() const
{
    QJsonObject object{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), name},
        {QStringLiteral("folder"), folder},
        {QStringLiteral("topic"), topic},
        {QStringLiteral("agent"), agent},
        {QStringLiteral("prompt"), prompt},
        {QStringLiteral("state"), turnStateName(state)},
        {QStringLiteral("queued_at"), queuedAt},
        {QStringLiteral("preparing_at"), preparingAt},
        {QStringLiteral("booting_at"), bootingAt},
        {QStringLiteral("running_at"), runningAt},
        {QStringLiteral("finishing_at"), finishingAt},
        {QStringLiteral("ended_at"), endedAt},
        {QStringLiteral("error_code"), errorCode},
        {QStringLiteral("error"), error},
        {QStringLiteral("accelerator"), accelerator},
        {QStringLiteral("subnet"), subnet},
        {QStringLiteral("vm_name"), vmName},
        {QStringLiteral("network_name"), networkName},
    };
    object.insert(QStringLiteral("exit_code"), exitCode ? QJsonValue(*exitCode) : QJsonValue());
    object.insert(QStringLiteral("cost_usd"), costUsd ? QJsonValue(*costUsd) : QJsonValue());
    object.insert(QStringLiteral("usage"), usage);
    return object;
}

TurnRecords::TurnRecords(store::Store &store)
    : m_store(store)
{}

// Every state a turn enters is also an audit entry, written in the same
// transaction as the state, so the two can never disagree.
Result<void> TurnRecords::audited(const QString &id, TurnState state,
                                  const std::function<Result<void>()> &change)
{
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        if (const Result<void> changed = change(); !changed)
            return changed;
        QSqlQuery turn(m_store.database());
        turn.prepare(QStringLiteral("SELECT name, group_folder, topic FROM turns WHERE id = ?"));
        turn.addBindValue(id);
        if (!turn.exec() || !turn.next())
            return store::sqlError(turn,
                                   QStringLiteral("reading turn %1 for the audit log").arg(id));
        const QJsonObject detail{{QStringLiteral("turn"), id},
                                 {QStringLiteral("folder"), turn.value(1).toString()},
                                 {QStringLiteral("topic"), turn.value(2).toString()},
                                 {QStringLiteral("state"), turnStateName(state)}};
        const auto entry = log.record(actors::turns, QStringLiteral("turn.") + turnStateName(state),
                                      turn.value(0).toString(), detail);
        if (!entry)
            return entry.error();
        return {};
    });
}

Result<void> TurnRecords::insert(const TurnRecord &record)
{
    return audited(record.id, record.state, [this, &record] { return insertRow(record); });
}

Result<void> TurnRecords::insertRow(const TurnRecord &record)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral(
        "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at, "
        "deadline_at, engine_pid, engine_started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &value :
         {QVariant(record.id), QVariant(record.name), QVariant(record.folder),
          QVariant(record.topic), QVariant(record.agent), QVariant(record.prompt),
          QVariant(turnStateName(record.state)), QVariant(record.queuedAt),
          QVariant(record.deadlineAt), QVariant(record.enginePid), QVariant(record.engineStarted)})
        query.addBindValue(value);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("recording turn %1").arg(record.name));
    return {};
}

Result<void> TurnRecords::setState(const QString &id, TurnState state, const QString &at)
{
    return audited(id, state, [this, &id, state, &at] {
        return update(id, {{QStringLiteral("state"), turnStateName(state)},
                           {turnStateTimeColumn(state), at}});
    });
}

Result<void> TurnRecords::setNetwork(const QString &id, const QString &subnet,
                                     const QString &networkName)
{
    return update(
        id, {{QStringLiteral("subnet"), subnet}, {QStringLiteral("network_name"), networkName}});
}

Result<void> TurnRecords::setProxyPid(const QString &id, qint64 pid)
{
    return update(id, {{QStringLiteral("proxy_pid"), pid}});
}

Result<void> TurnRecords::setProxyAddress(const QString &id, const QString &address)
{
    return update(id, {{QStringLiteral("proxy_address"), address}});
}

Result<void> TurnRecords::setMachine(const QString &id, const QString &vmName,
                                     const QString &accelerator)
{
    return update(
        id, {{QStringLiteral("vm_name"), vmName}, {QStringLiteral("accelerator"), accelerator}});
}

Result<void> TurnRecords::setExitCode(const QString &id, int code)
{
    return update(id, {{QStringLiteral("exit_code"), code}});
}

Result<void> TurnRecords::setError(const QString &id, const QString &code, const QString &message)
{
    return update(id, {{QStringLiteral("error_code"), code}, {QStringLiteral("error"), message}});
}

Result<void> TurnRecords::setUsage(const QString &id, const QJsonObject &usage,
                                   std::optional<double> costUsd)
{
    return update(id, {{QStringLiteral("usage"),
                        QString::fromUtf8(QJsonDocument(usage).toJson(QJsonDocument::Compact))},
                       {QStringLiteral("cost_usd"), costUsd ? QVariant(*costUsd) : QVariant()}});
}

Result<void> TurnRecords::update(const QString &id,
                                 const QList<std::pair<QString, QVariant>> &changes)
{
    QStringList assignments;
    for (const auto &change : changes)
        assignments << change.first + QStringLiteral(" = ?");
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral("UPDATE turns SET %1 WHERE id = ?")
                      .arg(assignments.join(QStringLiteral(", "))));
    for (const auto &change : changes)
        query.addBindValue(change.second);
    query.addBindValue(id);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("updating turn %1").arg(id));
    return {};
}

Result<void> TurnRecords::appendEvent(const TurnEventRecord &event)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral(
        "INSERT INTO turn_events (turn, seq, kind, json, at) VALUES (?, ?, ?, ?, ?)"));
    query.addBindValue(event.turn);
    query.addBindValue(event.seq);
    query.addBindValue(event.kind);
    query.addBindValue(QString::fromUtf8(QJsonDocument(event.json).toJson(QJsonDocument::Compact)));
    query.addBindValue(event.at);
    if (!query.exec())
        return store::sqlError(query,
                               QStringLiteral("recording an event of turn %1").arg(event.turn));
    return {};
}

Result<void> TurnRecords::appendEvents(const QList<TurnEventRecord> &events,
                                       const std::function<Result<void>()> &alongside)
{
    auto transaction = store::WriteTransaction::begin(m_store.database());
    if (!transaction)
        return transaction.error();
    for (const TurnEventRecord &event : events) {
        if (const Result<void> appended = appendEvent(event); !appended)
            return appended;
    }
    if (alongside) {
        if (const Result<void> written = alongside(); !written)
            return written;
    }
    return transaction->commit();
}

Result<void> TurnRecords::requestCancel(const QString &id, const QString &at)
{
    return update(id, {{QStringLiteral("cancel_requested_at"), at}});
}

Result<QList<TurnRecord>> TurnRecords::select(const QString &where, const QVariantList &bindings)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral("SELECT %1 FROM turns %2").arg(columns, where));
    for (const QVariant &binding : bindings)
        query.addBindValue(binding);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("reading turns"));
    QList<TurnRecord> records;
    while (query.next())
        records << recordFrom(query);
    return records;
}

Result<QList<TurnRecord>> TurnRecords::list(int limit)
{
    return select(QStringLiteral("ORDER BY queued_at DESC, rowid DESC LIMIT ?"), {limit});
}

Result<TurnRecord> TurnRecords::find(const QString &reference)
{
    // '%' and '_' are LIKE wildcards; a reference is hex, dashes and "az-".
    auto found = select(QStringLiteral("WHERE id = ? OR name = ? OR id LIKE ? LIMIT 2"),
                        {reference, reference, reference + QLatin1Char('%')});
    if (!found)
        return found.error();
    if (found->isEmpty() || reference.contains(QLatin1Char('%')) ||
        reference.contains(QLatin1Char('_')))
        return makeError(QStringLiteral("turns.not-found"),
                         QStringLiteral("no turn '%1' (see `arizukoctl turns`)").arg(reference));
    if (found->size() > 1)
        return makeError(
            QStringLiteral("turns.ambiguous"),
            QStringLiteral("'%1' names more than one turn; give more of its id").arg(reference));
    return found->first();
}

Result<TurnRecord> TurnRecords::findLive(const QString &reference)
{
    const auto turn = find(reference);
    if (turn && isTerminal(turn->state))
        return makeError(QStringLiteral("turns.ended"),
                         QStringLiteral("turn %1 already ended (%2)")
                             .arg(turn->name, turnStateName(turn->state)));
    return turn;
}

Result<QList<TurnRecord>> TurnRecords::ofTopic(const QString &folder, const QString &topic)
{
    return select(QStringLiteral("WHERE group_folder = ? AND topic = ? ORDER BY queued_at, rowid"),
                  {folder, topic});
}

Result<QString> TurnRecords::lastAgent(const QString &folder)
{
    const auto latest =
        select(QStringLiteral("WHERE group_folder = ? ORDER BY queued_at DESC, rowid DESC LIMIT 1"),
               {folder});
    if (!latest)
        return latest.error();
    return latest->isEmpty() ? QString() : latest->first().agent;
}

Result<TopicActivity> TurnRecords::topicActivity(const QString &folder, const QString &topic)
{
    const QString ofTheTopic = QStringLiteral("FROM turns WHERE group_folder = ? AND topic = ?");
    QSqlQuery query(m_store.database());
    query.prepare(
        QStringLiteral("SELECT %1, (SELECT count(*) %2 AND state = '%3'), "
                       "EXISTS (SELECT 1 %2 AND state IN %4) %2 "
                       "ORDER BY queued_at DESC, rowid DESC LIMIT 1")
            .arg(columns, ofTheTopic, turnStateName(TurnState::Queued), activeStatesSql()));
    for (int binding = 0; binding < 3; ++binding) {
        query.addBindValue(folder);
        query.addBindValue(topic);
    }
    if (!query.exec())
        return store::sqlError(query,
                               QStringLiteral("reading the activity of topic %1").arg(topic));
    TopicActivity activity;
    if (!query.next())
        return activity;
    activity.latest = recordFrom(query);
    const int extra = query.record().count() - 2;
    activity.queued = query.value(extra).toInt();
    activity.running = query.value(extra + 1).toBool();
    return activity;
}

Result<QList<TurnRecord>> TurnRecords::live()
{
    return select(QStringLiteral("WHERE state NOT IN ") + terminalStatesSql(), {});
}

Result<QList<std::pair<qint64, QString>>> TurnRecords::activeEnginesInTopic(const QString &folder,
                                                                            const QString &topic,
                                                                            const QString &except)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral("SELECT engine_pid, engine_started FROM turns WHERE group_folder "
                                 "= ? AND topic = ? AND id != ? AND state IN ") +
                  activeStatesSql());
    query.addBindValue(folder);
    query.addBindValue(topic);
    query.addBindValue(except);
    if (!query.exec())
        return store::sqlError(query,
                               QStringLiteral("reading the active turns of topic %1").arg(topic));
    QList<std::pair<qint64, QString>> engines;
    while (query.next())
        engines.append({query.value(0).toLongLong(), query.value(1).toString()});
    return engines;
}

Result<QStringList> TurnRecords::cancelRequested(qint64 enginePid)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral("SELECT id FROM turns WHERE cancel_requested_at IS NOT NULL AND "
                                 "engine_pid = ? AND state NOT IN ") +
                  terminalStatesSql());
    query.addBindValue(enginePid);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("reading cancel requests"));
    QStringList ids;
    while (query.next())
        ids << query.value(0).toString();
    return ids;
}

Result<QList<TurnEventRecord>> TurnRecords::events(const QString &id)
{
    QSqlQuery query(m_store.database());
    query.prepare(
        QStringLiteral("SELECT seq, kind, json, at FROM turn_events WHERE turn = ? ORDER BY seq"));
    query.addBindValue(id);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("reading the events of turn %1").arg(id));
    QList<TurnEventRecord> events;
    while (query.next())
        events << TurnEventRecord{id, query.value(0).toLongLong(), query.value(1).toString(),
                                  QJsonDocument::fromJson(query.value(2).toByteArray()).object(),
                                  query.value(3).toString()};
    return events;
}

Result<bool> TurnRecords::hasSessionTurns(const QString &folder, const QString &topic,
                                          const QString &except, const QString &agent)
{
    QSqlQuery query(m_store.database());
    query.prepare(QStringLiteral("SELECT 1 FROM turns WHERE group_folder = ? AND topic = ? AND "
                                 "id != ? AND agent = ? AND running_at IS NOT NULL LIMIT 1"));
    query.addBindValue(folder);
    query.addBindValue(topic);
    query.addBindValue(except);
    query.addBindValue(agent);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("reading the turns of topic %1").arg(topic));
    return query.next();
}

} // namespace arizuko::turns
