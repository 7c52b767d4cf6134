#pragma once

// Tokens and cost of a turn's model calls, read from the replies as they
// pass through the gateway, and the price table that turns tokens into USD.

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

namespace arizuko::gateway {

struct TokenCounts
{
    qint64 input = 0;
    qint64 output = 0;
    qint64 cacheCreation = 0;
    qint64 cacheRead = 0;

    TokenCounts operator-(const TokenCounts &other) const
    {
        return {input - other.input, output - other.output, cacheCreation - other.cacheCreation,
                cacheRead - other.cacheRead};
    }
    bool operator==(const TokenCounts &) const = default;
};

// USD per million tokens.
struct ModelPrice
{
    double input = 0;
    double output = 0;
    double cacheWrite = 0; // 5-minute cache writes, the API's default
    double cacheRead = 0;

    double cost(const TokenCounts &tokens) const;
};

// The published price of a model id ("claude-sonnet-4-5-20250929",
// "gpt-5.4"), or
// nullopt for a model the table does not know. See docs/model-gateway.md.
std::optional<ModelPrice> publishedPrice(QStringView model);

struct ModelUsage
{
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    qint64 cacheCreationInputTokens = 0;
    qint64 cacheReadInputTokens = 0;
    int responses = 0;
    // Null once a response came from a model without a known price: a
    // partial sum would read as the whole cost.
    std::optional<double> costUsd = 0.0;

    // Adds tokens of one response; `price` nullopt makes the cost unknown.
    void add(const TokenCounts &tokens, const std::optional<ModelPrice> &price);
    QJsonObject toJson() const;
};

// Reads one response's usage from its SSE stream or its JSON body, in
// either API: Anthropic's message_start/message_delta/message_stop, or the
// Responses API's response.created/response.completed (docs/model-gateway.md).
class ResponseUsage
{
public:
    // Returns true when the counts changed.
    bool readEvent(QByteArrayView name, QByteArrayView data);
    // A whole reply: an Anthropic message or a Responses API response object.
    bool readMessage(const QJsonObject &message);

    const TokenCounts &counts() const { return m_counts; }
    const QString &model() const { return m_model; }
    bool started() const { return m_started; }
    bool stopped() const { return m_stopped; }
    // The message of an `error` (or `response.failed`) event inside a
    // stream, if one came.
    const QString &streamError() const { return m_streamError; }

private:
    bool readUsage(const QJsonObject &usage);
    bool readResponsesEvent(QByteArrayView name, const QJsonObject &event);
    bool readResponse(const QJsonObject &response);

    TokenCounts m_counts;
    QString m_model;
    QString m_streamError;
    bool m_started = false;
    bool m_stopped = false;
};

} // namespace arizuko::gateway

Q_DECLARE_METATYPE(arizuko::gateway::ModelUsage)
