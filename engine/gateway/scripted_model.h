#pragma once

// A model that answers from a script instead of a network, in the
// Anthropic Messages API (/v1/messages) and the OpenAI Responses API
// (/v1/responses, scripted_responses.cpp): the offline demo, the responder
// tests drive Claude Code, pi and Codex with, and the upstream
// `arizukoctl model serve` serves. The script format is
// documented in docs/model-gateway.md; answering is pure (no I/O), the
// ScriptPlayer puts a reply on the wire.

#include "core/result.h"
#include "gateway/http_request.h"
#include "gateway/model_usage.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <chrono>
#include <optional>

namespace arizuko::gateway {

struct ScriptedToolUse
{
    QString id; // empty: a fresh toolu_… id per reply
    QString name;
    QJsonObject input;
};

struct ScriptedError
{
    int status = 500;
    QString type;    // Anthropic's error type, by default the status's
    QString message;
    std::optional<bool> shouldRetry; // sent as x-should-retry when set
};

struct ScriptedStep
{
    QString text;
    QList<ScriptedToolUse> toolUses;
    std::optional<ScriptedError> error;
    int dropAfterEvents = -1; // -1: never drop
    std::chrono::milliseconds delay{0};      // before the reply starts
    std::chrono::milliseconds eventDelay{0}; // between two SSE events
    // The reply waits until its server is told to release this name
    // (ScriptedServer: POST /script/release/NAME); empty: no hold.
    QString hold;
    std::optional<qint64> inputTokens;
    std::optional<qint64> outputTokens;
};

struct ScriptedExchange
{
    QString prompt; // lower-cased substring; empty matches any prompt
    QList<ScriptedStep> steps;
};

// One reply, ready to play: a whole body, or SSE events one by one.
struct ScriptedReply
{
    int status = 200;
    HttpHeaders headers;
    QByteArray body;
    bool streamed = false;
    QList<QByteArray> events; // encoded SSE events
    std::chrono::milliseconds delay{0};
    std::chrono::milliseconds eventDelay{0};
    int dropAfterEvents = -1;
    QString hold; // the step's hold, kept by the server until released
};

// Where a conversation stands: the prompt of the current turn and how many
// assistant messages already answered it.
struct ConversationPosition
{
    QString prompt;
    int step = 0;
};

class ScriptedModel
{
public:
    // The demo script, built into the engine as a Qt resource. It needs
    // the variables ALLOWED_URL and DENIED_URL.
    static inline const QString demoScriptPath = QStringLiteral(":/gateway/demo-script.json");

    // `variables` fill ${NAME} in the script's strings; an unknown name is
    // an error. Every error names the exchange, step and field at fault.
    static Result<ScriptedModel> load(const QByteArray &json,
                                      const QMap<QString, QString> &variables = {});
    // A file, or a resource path such as demoScriptPath.
    static Result<ScriptedModel> loadFile(const QString &path,
                                          const QMap<QString, QString> &variables = {});
    static Result<ScriptedModel> demo(const QMap<QString, QString> &variables);

    // The reply to one request. Never fails: a request the script does not
    // cover gets the fallback, a malformed one Anthropic's 400.
    ScriptedReply reply(QByteArrayView method, QByteArrayView path,
                        const QByteArray &body) const;

    // The step that answers a /v1/messages request; the fallback when no
    // exchange covers it or the request offers no tools.
    const ScriptedStep &select(const QJsonObject &request) const;
    static ConversationPosition position(const QJsonArray &messages);
    // The same for a /v1/responses request, whose conversation is `input`.
    const ScriptedStep &selectResponse(const QJsonObject &request) const;
    static ConversationPosition responsesPosition(const QJsonArray &input);

    const QString &name() const { return m_name; }
    const QList<ScriptedExchange> &exchanges() const { return m_exchanges; }
    const ScriptedStep &fallback() const { return m_fallback; }

private:
    friend class ScriptLoader;
    ScriptedReply messageReply(const QJsonObject &request, qsizetype requestBytes) const;
    ScriptedReply responsesReply(const QJsonObject &request, qsizetype requestBytes) const;
    const ScriptedStep &selectAt(const ConversationPosition &at, bool offersTools) const;

    QString m_name;
    QList<ScriptedExchange> m_exchanges;
    ScriptedStep m_fallback;
    ScriptedStep m_textOnlyFallback; // the fallback's text, for requests without tools
};

} // namespace arizuko::gateway
