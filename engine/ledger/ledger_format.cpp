#include "ledger/ledger_format.h"

#include <QDateTime>
#include <QJsonValue>
#include <QRegularExpression>
#include <QTimeZone>

namespace arizuko::ledger {
namespace {

template<typename T>
QJsonValue orNull(const std::optional<T> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

bool isTunnel(const LedgerEntry &entry)
{
    return entry.method.isEmpty() || entry.method == QLatin1String("CONNECT");
}

// OCSF HTTP Activity's activity ids by method; 99 is Other.
int httpActivity(const QString &method)
{
    static const QStringList methods{QStringLiteral("CONNECT"), QStringLiteral("DELETE"),
                                     QStringLiteral("GET"),     QStringLiteral("HEAD"),
                                     QStringLiteral("OPTIONS"), QStringLiteral("POST"),
                                     QStringLiteral("PUT"),     QStringLiteral("TRACE")};
    const qsizetype index = methods.indexOf(method);
    return index < 0 ? 99 : int(index) + 1;
}

QString httpActivityName(int id, const QString &method)
{
    if (id == 99)
        return QStringLiteral("Other");
    return method.left(1) + method.mid(1).toLower();
}

QString optionalCell(const std::optional<qint64> &value)
{
    return value ? QString::number(*value) : QStringLiteral("-");
}

} // namespace

std::optional<LedgerFormat> ledgerFormatFromName(const QString &name)
{
    if (name == QLatin1String("jsonl"))
        return LedgerFormat::JsonLines;
    if (name == QLatin1String("ocsf"))
        return LedgerFormat::Ocsf;
    if (name == QLatin1String("table"))
        return LedgerFormat::Table;
    return std::nullopt;
}

std::optional<QString> sinceTimestamp(const QString &text, const QDateTime &now)
{
    static const QRegularExpression age(QStringLiteral("^(\\d{1,9})([smhd])$"));
    if (const QRegularExpressionMatch match = age.match(text); match.hasMatch()) {
        const qint64 count = match.captured(1).toLongLong();
        const QChar unit = match.captured(2).at(0);
        const qint64 seconds = unit == QLatin1Char('s')   ? count
                               : unit == QLatin1Char('m') ? count * 60
                               : unit == QLatin1Char('h') ? count * 3600
                                                          : count * 86400;
        return now.addSecs(-seconds).toUTC().toString(Qt::ISODateWithMs);
    }
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    if (!time.isValid())
        return std::nullopt;
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeZone(QTimeZone::utc());
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject ledgerJson(const LedgerEntry &entry)
{
    QJsonValue rule = QJsonValue::Null;
    if (entry.ruleText)
        rule = QJsonObject{{QStringLiteral("id"), orNull(entry.ruleId)},
                           {QStringLiteral("text"), *entry.ruleText},
                           {QStringLiteral("folder"), orNull(entry.ruleFolder)}};
    return {{QStringLiteral("schema"), ledgerSchema},
            {QStringLiteral("id"), entry.id},
            {QStringLiteral("time"), entry.time},
            {QStringLiteral("turn"), entry.turn},
            {QStringLiteral("folder"), entry.folder},
            {QStringLiteral("topic"), entry.topic},
            {QStringLiteral("source"), entry.source},
            {QStringLiteral("client"), entry.client},
            {QStringLiteral("method"), entry.method},
            {QStringLiteral("host"), entry.host},
            {QStringLiteral("port"), entry.port},
            {QStringLiteral("path"), orNull(entry.path)},
            {QStringLiteral("decision"), entry.decision},
            {QStringLiteral("reason"), entry.reason},
            {QStringLiteral("rule"), rule},
            {QStringLiteral("status"), orNull(entry.status)},
            {QStringLiteral("bytes_up"), orNull(entry.bytesUp)},
            {QStringLiteral("bytes_down"), orNull(entry.bytesDown)},
            {QStringLiteral("duration_ms"), orNull(entry.durationMs)},
            {QStringLiteral("asked"), entry.asked},
            {QStringLiteral("answer"), orNull(entry.answer)}};
}

QJsonObject ocsfEvent(const LedgerEntry &entry)
{
    const bool allowed = entry.decision == QLatin1String("allow");
    const bool tunnel = isTunnel(entry);
    const int classUid = tunnel ? 4001 : 4002;
    int activity = 0;
    QString activityName;
    if (tunnel) {
        // Network Activity: 1 Open, 5 Refuse.
        activity = allowed ? 1 : 5;
        activityName = allowed ? QStringLiteral("Open") : QStringLiteral("Refuse");
    } else {
        activity = httpActivity(entry.method);
        activityName = httpActivityName(activity, entry.method);
    }
    QJsonObject event{
        {QStringLiteral("time"),
         QDateTime::fromString(entry.time, Qt::ISODateWithMs).toMSecsSinceEpoch()},
        {QStringLiteral("category_uid"), 4},
        {QStringLiteral("category_name"), QStringLiteral("Network Activity")},
        {QStringLiteral("class_uid"), classUid},
        {QStringLiteral("class_name"),
         tunnel ? QStringLiteral("Network Activity") : QStringLiteral("HTTP Activity")},
        {QStringLiteral("activity_id"), activity},
        {QStringLiteral("activity_name"), activityName},
        {QStringLiteral("type_uid"), classUid * 100 + activity},
        {QStringLiteral("severity_id"), 1},
        {QStringLiteral("severity"), QStringLiteral("Informational")},
        {QStringLiteral("status_id"), allowed ? 1 : 2},
        {QStringLiteral("status"), allowed ? QStringLiteral("Success") : QStringLiteral("Failure")},
        {QStringLiteral("status_detail"), entry.reason},
        {QStringLiteral("action_id"), allowed ? 1 : 2},
        {QStringLiteral("action"), allowed ? QStringLiteral("Allowed") : QStringLiteral("Denied")},
        {QStringLiteral("disposition_id"), allowed ? 1 : 2},
        {QStringLiteral("disposition"),
         allowed ? QStringLiteral("Allowed") : QStringLiteral("Blocked")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("version"), ocsfVersion},
                     {QStringLiteral("uid"), QString::number(entry.id)},
                     {QStringLiteral("correlation_uid"), entry.turn},
                     {QStringLiteral("log_name"), QStringLiteral("egress-ledger")},
                     {QStringLiteral("product"),
                      QJsonObject{{QStringLiteral("name"), QStringLiteral("Arizuko Desktop")},
                                  {QStringLiteral("vendor_name"), QStringLiteral("Arizuko")},
                                  {QStringLiteral("feature"),
                                   QJsonObject{{QStringLiteral("name"), entry.source}}}}}}},
        {QStringLiteral("dst_endpoint"), QJsonObject{{QStringLiteral("hostname"), entry.host},
                                                     {QStringLiteral("port"), entry.port}}},
        {QStringLiteral("connection_info"),
         QJsonObject{{QStringLiteral("protocol_name"), QStringLiteral("tcp")},
                     {QStringLiteral("direction_id"), 2},
                     {QStringLiteral("direction"), QStringLiteral("Outbound")}}},
        {QStringLiteral("unmapped"), QJsonObject{{QStringLiteral("folder"), entry.folder},
                                                 {QStringLiteral("topic"), entry.topic},
                                                 {QStringLiteral("asked"), entry.asked},
                                                 {QStringLiteral("answer"), orNull(entry.answer)},
                                                 {QStringLiteral("schema"), ledgerSchema}}}};
    if (!entry.client.isEmpty())
        event.insert(QStringLiteral("src_endpoint"),
                     QJsonObject{{QStringLiteral("ip"), entry.client}});
    if (entry.bytesUp || entry.bytesDown)
        event.insert(QStringLiteral("traffic"),
                     QJsonObject{{QStringLiteral("bytes_out"), orNull(entry.bytesUp)},
                                 {QStringLiteral("bytes_in"), orNull(entry.bytesDown)}});
    if (entry.durationMs)
        event.insert(QStringLiteral("duration"), *entry.durationMs);
    if (entry.ruleText) {
        QJsonObject rule{{QStringLiteral("name"), *entry.ruleText}};
        if (entry.ruleId)
            rule.insert(QStringLiteral("uid"), QString::number(*entry.ruleId));
        if (entry.ruleFolder)
            rule.insert(QStringLiteral("desc"),
                        QStringLiteral("of folder '%1'").arg(*entry.ruleFolder));
        event.insert(QStringLiteral("firewall_rule"), rule);
    }
    if (!tunnel) {
        QJsonObject url{{QStringLiteral("hostname"), entry.host},
                        {QStringLiteral("port"), entry.port}};
        if (entry.path)
            url.insert(QStringLiteral("path"), *entry.path);
        event.insert(QStringLiteral("http_request"),
                     QJsonObject{{QStringLiteral("http_method"), entry.method},
                                 {QStringLiteral("url"), url}});
        if (entry.status)
            event.insert(QStringLiteral("http_response"),
                         QJsonObject{{QStringLiteral("code"), *entry.status}});
    }
    return event;
}

QStringList ledgerTableHeaders()
{
    return {QStringLiteral("TIME"),   QStringLiteral("TURN"),     QStringLiteral("SOURCE"),
            QStringLiteral("METHOD"), QStringLiteral("HOST"),     QStringLiteral("PATH"),
            QStringLiteral("STATUS"), QStringLiteral("DECISION"), QStringLiteral("REASON"),
            QStringLiteral("RULE"),   QStringLiteral("UP"),       QStringLiteral("DOWN"),
            QStringLiteral("MS")};
}

QStringList ledgerTableRow(const LedgerEntry &entry)
{
    QString rule = entry.ruleText.value_or(QStringLiteral("-"));
    if (entry.ruleFolder)
        rule += QStringLiteral(" (%1)").arg(entry.ruleFolder->isEmpty() ? QStringLiteral("''")
                                                                        : *entry.ruleFolder);
    const QString host =
        entry.port > 0 ? QStringLiteral("%1:%2").arg(entry.host).arg(entry.port) : entry.host;
    QString reason = entry.reason;
    if (entry.asked)
        reason += QStringLiteral(" (asked: %1)").arg(entry.answer.value_or(QStringLiteral("-")));
    return {entry.time,
            entry.turn.left(8),
            entry.source,
            entry.method.isEmpty() ? QStringLiteral("-") : entry.method,
            host,
            entry.path.value_or(QStringLiteral("-")),
            entry.status ? QString::number(*entry.status) : QStringLiteral("-"),
            entry.decision,
            reason,
            rule,
            optionalCell(entry.bytesUp),
            optionalCell(entry.bytesDown),
            optionalCell(entry.durationMs)};
}

} // namespace arizuko::ledger
