#include "transcript_items.h"

#include "markdown.h"
#include "models/network_decision_model.h"
#include "models/turn_list_model.h"
#include "turn_error_text.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace arizuko::desktop {
namespace {

// The words this file adds to the transcript, in one translation context.
class TranscriptText
{
    Q_DECLARE_TR_FUNCTIONS(arizuko::desktop::TranscriptText)
};

QString text(const QJsonObject &json, const char *key)
{
    return json.value(QLatin1String(key)).toString();
}

QJsonObject item(const turns::TurnEventRecord &event, const QString &type)
{
    return {{QStringLiteral("turn"), event.turn},
            {QStringLiteral("seq"), event.seq},
            {QStringLiteral("type"), type}};
}

QJsonObject note(const turns::TurnEventRecord &event, const QString &line)
{
    QJsonObject result = item(event, QStringLiteral("note"));
    result.insert(QStringLiteral("text"), line);
    return result;
}

// The host's record of a connector call (ConnectorBroker::called): its
// method, path and status, as audited. It never holds a secret's value, and
// the path never its query, where an apikey-query key would travel.
QString connectorLine(const QJsonObject &json)
{
    const QString method = text(json, "method");
    const QString path = text(json, "path");
    const QString status = text(json, "status");
    // One pass of arg(): a path holds %XX escapes.
    if (status == QLatin1String("ok") || status == QLatin1String("http-error"))
        return TranscriptText::tr("%1 %2 \u2192 HTTP %3 \u00b7 %4 ms",
                                  "a connector call: method, path, HTTP status, latency")
            .arg(method, path, QString::number(json.value(QStringLiteral("http_status")).toInt()),
                 QString::number(json.value(QStringLiteral("latency_ms")).toInteger()));
    if (status == QLatin1String("refused"))
        return TranscriptText::tr("%1 %2 refused by the grants", "a connector call: method, tool")
            .arg(method, text(json, "tool"));
    return TranscriptText::tr("%1 %2 failed: %3", "a connector call: method, path or tool, why")
        .arg(method, path.isEmpty() ? text(json, "tool") : path, text(json, "error"));
}

} // namespace

QJsonObject promptItem(const turns::TurnRecord &turn)
{
    return {{QStringLiteral("turn"), turn.id},
            {QStringLiteral("seq"), 0},
            {QStringLiteral("type"), QStringLiteral("prompt")},
            {QStringLiteral("text"), turn.agent == QLatin1String("command")
                                         ? QStringLiteral("$ ") + turn.prompt
                                         : turn.prompt}};
}

QJsonObject transcriptItem(const turns::TurnEventRecord &event)
{
    const QJsonObject &json = event.json;
    const QString &kind = event.kind;
    if (kind == QLatin1String("text")) {
        QJsonObject result = item(event, QStringLiteral("text"));
        result.insert(QStringLiteral("html"), markdownToHtml(text(json, "text")));
        return result;
    }
    if (kind == QLatin1String("thinking")) {
        QJsonObject result = item(event, QStringLiteral("thinking"));
        result.insert(QStringLiteral("text"), text(json, "text"));
        return result;
    }
    if (kind == QLatin1String("tool_use")) {
        QJsonObject result = item(event, QStringLiteral("tool"));
        result.insert(QStringLiteral("id"), text(json, "id"));
        result.insert(QStringLiteral("name"), text(json, "name"));
        result.insert(QStringLiteral("summary"), text(json, "summary"));
        result.insert(
            QStringLiteral("input"),
            QString::fromUtf8(QJsonDocument(json.value(QStringLiteral("input")).toObject())
                                  .toJson(QJsonDocument::Indented)));
        return result;
    }
    if (kind == QLatin1String("tool_result")) {
        QJsonObject result = item(event, QStringLiteral("tool_result"));
        result.insert(QStringLiteral("id"), text(json, "tool_use_id"));
        result.insert(QStringLiteral("text"), text(json, "content"));
        result.insert(QStringLiteral("error"), json.value(QStringLiteral("is_error")).toBool());
        return result;
    }
    if (kind == QLatin1String("connector")) {
        QJsonObject result = item(event, QStringLiteral("connector"));
        result.insert(QStringLiteral("tool"), text(json, "tool"));
        result.insert(QStringLiteral("text"), connectorLine(json));
        result.insert(QStringLiteral("error"), text(json, "status") != QLatin1String("ok"));
        return result;
    }
    if (kind == QLatin1String("output") || kind == QLatin1String("event")) {
        QJsonObject result = item(event, QStringLiteral("tool_result"));
        result.insert(QStringLiteral("text"), text(json, "line"));
        return result;
    }
    if (kind == QLatin1String("phase")) {
        const auto state = turns::turnStateFromName(text(json, "state"));
        return note(event, QStringLiteral("\u25b8 %1")
                               .arg(state ? models::turnStateText(*state) : text(json, "state")));
    }
    if (kind == QLatin1String("network") && text(json, "event") == QLatin1String("decision")) {
        const models::EgressOutcome outcome =
            models::egressOutcome(text(json, "decision"), text(json, "reason"));
        const bool denied = outcome != models::EgressOutcome::Allowed;
        const QString line = outcome == models::EgressOutcome::Allowed
                                 ? TranscriptText::tr("\u2713 allowed %1:%2 (%3)")
                                 : outcome == models::EgressOutcome::Refused
                                       ? TranscriptText::tr("\u2717 denied %1:%2 (%3)")
                                       : TranscriptText::tr("\u2717 failed %1:%2 (%3)");
        QJsonObject result = note(event, line.arg(text(json, "host"))
                                             .arg(json.value(QStringLiteral("port")).toInt())
                                             .arg(text(json, "reason")));
        result.insert(QStringLiteral("denied"), denied);
        return result;
    }
    if (kind == QLatin1String("error")) {
        QJsonObject result = item(event, QStringLiteral("error"));
        result.insert(QStringLiteral("text"),
                      turnErrorText(text(json, "code"), text(json, "message")));
        return result;
    }
    if (kind == QLatin1String("session"))
        return note(event, text(json, "reason"));
    if (kind == QLatin1String("cancel"))
        return note(event, TranscriptText::tr("cancelled: %1").arg(text(json, "reason")));
    if (kind == QLatin1String("exit"))
        return note(event, TranscriptText::tr("agent %1, status %2")
                               .arg(text(json, "reason"))
                               .arg(json.value(QStringLiteral("code")).toInt()));
    if (kind == QLatin1String("result") && json.value(QStringLiteral("is_error")).toBool()) {
        QJsonObject result = item(event, QStringLiteral("error"));
        result.insert(QStringLiteral("text"), text(json, "text"));
        return result;
    }
    return {};
}

QJsonArray transcriptItems(const QList<turns::TurnEventRecord> &events)
{
    QJsonArray items;
    for (const turns::TurnEventRecord &event : events) {
        const QJsonObject shown = transcriptItem(event);
        if (!shown.isEmpty())
            items.append(shown);
    }
    return items;
}

QJsonObject footerItem(const turns::TurnRecord &turn)
{
    QString line = models::turnStateText(turn.state);
    const QString duration = models::turnDuration(turn);
    if (!duration.isEmpty())
        line = TranscriptText::tr("%1 in %2", "a turn's end state and how long it took")
                   .arg(line, duration);
    const QString usage = models::turnUsage(turn);
    if (!usage.isEmpty())
        line += QStringLiteral(" \u00b7 ") + usage;
    return {{QStringLiteral("turn"), turn.id},
            {QStringLiteral("seq"), std::numeric_limits<int>::max()},
            {QStringLiteral("type"), QStringLiteral("footer")},
            {QStringLiteral("text"), line}};
}

QString transcriptMarkdown(const QList<turns::TurnRecord> &turns,
                           const QList<QList<turns::TurnEventRecord>> &events)
{
    QStringList out;
    for (qsizetype index = 0; index < turns.size(); ++index) {
        out << TranscriptText::tr("**You:** %1", "the user's prompt in an exported transcript")
                   .arg(turns[index].prompt);
        for (const turns::TurnEventRecord &event : events.value(index)) {
            const QJsonObject &json = event.json;
            if (event.kind == QLatin1String("text"))
                out << text(json, "text");
            else if (event.kind == QLatin1String("tool_use"))
                out << QStringLiteral("- `%1`").arg(text(json, "summary"));
            else if (event.kind == QLatin1String("connector"))
                out << QStringLiteral("- `%1`").arg(connectorLine(json));
            else if (event.kind == QLatin1String("tool_result") ||
                     event.kind == QLatin1String("output"))
                out << QStringLiteral("```\n%1\n```")
                           .arg(event.kind == QLatin1String("output") ? text(json, "line")
                                                                      : text(json, "content"));
        }
        out << QStringLiteral("*%1*").arg(
            footerItem(turns[index]).value(QStringLiteral("text")).toString());
    }
    return out.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

} // namespace arizuko::desktop
