#include "ledger/ledger_recorder.h"

#include "policy/grant.h"
#include "policy/network_rules.h"

#include <QRegularExpression>

namespace arizuko::ledger {
namespace {

QString text(const QJsonObject &json, const char *key)
{
    return json.value(QLatin1String(key)).toString();
}

std::optional<qint64> number(const QJsonObject &json, const char *key)
{
    const QJsonValue value = json.value(QLatin1String(key));
    if (!value.isDouble())
        return std::nullopt;
    return value.toInteger();
}

QString openKey(const QJsonObject &json)
{
    return QStringList{
        text(json, "client"),   text(json, "method"),
        text(json, "host"),     QString::number(json.value(QLatin1String("port")).toInteger()),
        text(json, "decision"), text(json, "reason")}
        .join(QChar(0x1f));
}

// The reasons the proxy gives after a host passed its lists: the rule that
// let it past them is the one that decided to let it go on.
bool passedTheLists(const QString &reason)
{
    static const QStringList reasons{
        QStringLiteral("allowed"),         QStringLiteral("private-address"),
        QStringLiteral("resolve-failed"),  QStringLiteral("connect-failed"),
        QStringLiteral("connect-timeout"), QStringLiteral("bad-response")};
    return reasons.contains(reason);
}

} // namespace

QString pathWithoutQuery(const QString &path)
{
    const qsizetype end = path.indexOf(QRegularExpression(QStringLiteral("[?#]")));
    return end < 0 ? path : path.left(end);
}

LedgerRecorder::LedgerRecorder(QString turn, QString folder, QString topic)
    : m_turn(std::move(turn))
    , m_folder(std::move(folder))
    , m_topic(std::move(topic))
{}

void LedgerRecorder::setPolicy(const policy::NetworkPolicy &policy)
{
    m_policy = policy;
}

std::optional<LedgerWrite> LedgerRecorder::take(const QString &kind, const QJsonObject &json,
                                                qint64 seq, const QString &at)
{
    if (kind == QLatin1String("network")) {
        const QString event = text(json, "event");
        if (event == QLatin1String("decision"))
            return proxyDecision(json, seq, at);
        if (event == QLatin1String("close"))
            return proxyClose(json, seq, at);
        return std::nullopt;
    }
    if (kind == QLatin1String("model") || kind == QLatin1String("gateway"))
        return gateway(kind, json, seq, at);
    if (kind == QLatin1String("connector"))
        return connector(json, seq, at);
    return std::nullopt;
}

LedgerEntry LedgerRecorder::base(qint64 seq, const QString &at, const QJsonObject &json) const
{
    LedgerEntry entry;
    // The proxy's own time of the decision, else when the engine heard it.
    entry.time = json.value(QLatin1String("time")).isString() ? text(json, "time") : at;
    entry.turn = m_turn;
    entry.eventSeq = seq;
    entry.folder = m_folder;
    entry.topic = m_topic;
    return entry;
}

LedgerEntry LedgerRecorder::proxyEntry(const QJsonObject &json, qint64 seq, const QString &at) const
{
    LedgerEntry entry = base(seq, at, json);
    entry.source = sourceProxy;
    entry.client = text(json, "client");
    entry.method = text(json, "method");
    entry.host = text(json, "host");
    entry.port = int(json.value(QLatin1String("port")).toInteger());
    if (json.value(QLatin1String("path")).isString())
        entry.path = pathWithoutQuery(text(json, "path"));
    entry.decision = text(json, "decision");
    entry.reason = text(json, "reason");
    if (const auto status = number(json, "status"))
        entry.status = int(*status);
    entry.asked = json.value(QLatin1String("asked")).toBool();
    if (json.value(QLatin1String("answer")).isString())
        entry.answer = text(json, "answer");
    findRule(entry);
    return entry;
}

LedgerWrite LedgerRecorder::proxyDecision(const QJsonObject &json, qint64 seq, const QString &at)
{
    m_open[openKey(json)].append(seq);
    return {LedgerWrite::Kind::Insert, proxyEntry(json, seq, at)};
}

LedgerWrite LedgerRecorder::proxyClose(const QJsonObject &json, qint64 seq, const QString &at)
{
    const QString key = openKey(json);
    const auto open = m_open.find(key);
    // A close whose decision the turn never saw (a spare's, before the turn
    // took it over) makes a row of its own, complete.
    const bool decided = open != m_open.end();
    LedgerEntry entry;
    if (decided) {
        entry.turn = m_turn;
        entry.eventSeq = open->takeFirst();
        if (open->isEmpty())
            m_open.erase(open);
    } else {
        entry = proxyEntry(json, seq, at);
    }
    entry.bytesUp = number(json, "bytes_up");
    entry.bytesDown = number(json, "bytes_down");
    entry.durationMs = number(json, "duration_ms");
    return {decided ? LedgerWrite::Kind::Complete : LedgerWrite::Kind::Insert, entry};
}

std::optional<LedgerWrite> LedgerRecorder::gateway(const QString &kind, const QJsonObject &json,
                                                   qint64 seq, const QString &at) const
{
    // The cap's note ("unrecorded") is no request.
    if (kind == QLatin1String("gateway") && !json.contains(QLatin1String("method")))
        return std::nullopt;
    LedgerEntry entry = base(seq, at, json);
    entry.source = sourceGateway;
    entry.client = text(json, "peer");
    entry.method = text(json, "method");
    entry.host = sourceGateway;
    entry.path = pathWithoutQuery(text(json, "path"));
    if (const auto status = number(json, "status"))
        entry.status = int(*status);
    if (kind == QLatin1String("model")) {
        entry.decision = QStringLiteral("allow");
        entry.reason = QStringLiteral("allowed");
        entry.durationMs = number(json, "ms");
    } else {
        entry.decision = QStringLiteral("deny");
        entry.reason = text(json, "reason");
    }
    return LedgerWrite{LedgerWrite::Kind::Insert, entry};
}

LedgerWrite LedgerRecorder::connector(const QJsonObject &json, qint64 seq, const QString &at) const
{
    LedgerEntry entry = base(seq, at, json);
    entry.source = sourceConnector;
    entry.method = text(json, "method");
    entry.host = text(json, "host");
    entry.port = int(json.value(QLatin1String("port")).toInteger(443));
    if (json.value(QLatin1String("path")).isString())
        entry.path = pathWithoutQuery(text(json, "path"));
    const QString status = text(json, "status");
    const bool refused = status == QLatin1String("refused");
    entry.decision = refused ? QStringLiteral("deny") : QStringLiteral("allow");
    entry.reason = refused ? text(json, "error") : QStringLiteral("allowed");
    if (const auto httpStatus = number(json, "http_status"); httpStatus && *httpStatus > 0)
        entry.status = int(*httpStatus);
    entry.durationMs = number(json, "latency_ms");
    entry.ruleText =
        QStringLiteral("connector %1 (%2)").arg(text(json, "tool"), text(json, "scope"));
    return {LedgerWrite::Kind::Insert, entry};
}

void LedgerRecorder::findRule(LedgerEntry &entry) const
{
    if (!m_policy || entry.host.isEmpty())
        return;
    const bool byRule = entry.reason == QLatin1String("denied-by-rule");
    const bool denied = byRule || entry.reason == QLatin1String("host-denied");
    if (!denied && !passedTheLists(entry.reason))
        return;
    // A request to an inspected host: the rule by method and path that
    // decided it, or what its `allow * HOST /**` stands for.
    if (entry.path && !entry.method.isEmpty()) {
        const Result<policy::RequestVerdict> request =
            policy::testRequest(*m_policy, m_folder, entry.method, entry.host, *entry.path);
        if (request && request->inspected) {
            if (request->allowed != denied)
                name(entry, request->decidingRule, request->egressGrant);
            return;
        }
    }
    const Result<policy::HostVerdict> verdict = policy::testHost(*m_policy, m_folder, entry.host);
    // A host the user allowed when asked is on no rule of the snapshot.
    if (!verdict || verdict->allowed == denied)
        return;
    name(entry, verdict->decidingRule, verdict->egressGrant);
}

void LedgerRecorder::name(LedgerEntry &entry, const std::optional<policy::NetworkRule> &rule,
                          const std::optional<policy::Grant> &grant)
{
    if (rule) {
        entry.ruleId = rule->id;
        entry.ruleText = policy::ruleText(*rule);
        entry.ruleFolder = rule->folder;
    } else if (grant) {
        entry.ruleText = QStringLiteral("egress grant ") + describeGrant(*grant);
        entry.ruleId = grant->id;
        entry.ruleFolder = grant->scope;
    }
}

} // namespace arizuko::ledger
