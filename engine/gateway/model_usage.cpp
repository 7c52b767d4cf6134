#include "gateway/model_usage.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <array>
#include <span>

namespace arizuko::gateway {

namespace {

struct PriceRow
{
    const char *model; // the id without its date suffix
    ModelPrice price;
};

// USD per million tokens: base input, output, 5-minute cache write, cache
// read. From platform.claude.com/docs/en/about-claude/pricing, read on
// 2026-12-01 (see docs/model-gateway.md for what is left out).
constexpr std::array priceTable{
    PriceRow{"claude-fable-5-1", {10.0, 50.0, 12.5, 0.25}},
    PriceRow{"claude-mythos-5-1", {10.0, 50.0, 12.5, 0.25}},
    PriceRow{"claude-fable-5", {10.0, 50.0, 12.5, 1.0}},
    PriceRow{"claude-mythos-5", {10.0, 50.0, 12.5, 1.0}},
    PriceRow{"claude-opus-5", {5.0, 25.0, 6.25, 0.5}},
    PriceRow{"claude-opus-4-8", {5.0, 25.0, 6.25, 0.5}},
    PriceRow{"claude-opus-4-7", {5.0, 25.0, 6.25, 0.5}},
    PriceRow{"claude-opus-4-6", {5.0, 25.0, 6.25, 0.5}},
    PriceRow{"claude-opus-4-5", {5.0, 25.0, 6.25, 0.5}},
    PriceRow{"claude-opus-4-1", {15.0, 75.0, 18.75, 1.5}},
    PriceRow{"claude-opus-4-0", {15.0, 75.0, 18.75, 1.5}},
    PriceRow{"claude-opus-4", {15.0, 75.0, 18.75, 1.5}},
    PriceRow{"claude-sonnet-4-6", {3.0, 15.0, 3.75, 0.3}},
    PriceRow{"claude-sonnet-4-5", {3.0, 15.0, 3.75, 0.3}},
    PriceRow{"claude-sonnet-4-0", {3.0, 15.0, 3.75, 0.3}},
    PriceRow{"claude-sonnet-4", {3.0, 15.0, 3.75, 0.3}},
    PriceRow{"claude-3-7-sonnet", {3.0, 15.0, 3.75, 0.3}},
    PriceRow{"claude-haiku-4-5", {1.0, 5.0, 1.25, 0.1}},
    PriceRow{"claude-3-5-haiku", {0.8, 4.0, 1.0, 0.08}},
    PriceRow{"claude-3-opus", {15.0, 75.0, 18.75, 1.5}},
    PriceRow{"claude-3-haiku", {0.25, 1.25, 0.3, 0.03}},
};

// OpenAI's models, USD per million tokens: input, output, no cache-write
// charge, cached input. Read on 2026-12-02 from third-party copies of
// developers.openai.com/api/docs/pricing (the 5.4/5.5 rows, June 2026) and
// OpenAI's announcements of the earlier models; docs/model-gateway.md.
constexpr std::array openAIPriceTable{
    PriceRow{"gpt-5.5", {5.0, 30.0, 0.0, 0.5}},
    PriceRow{"gpt-5.4", {2.5, 15.0, 0.0, 0.25}},
    PriceRow{"gpt-5.4-mini", {0.75, 4.5, 0.0, 0.075}},
    PriceRow{"gpt-5.4-nano", {0.2, 1.25, 0.0, 0.02}},
    PriceRow{"gpt-5.2", {1.75, 14.0, 0.0, 0.175}},
    PriceRow{"gpt-5.2-codex", {1.75, 14.0, 0.0, 0.175}},
    PriceRow{"gpt-5.1", {1.25, 10.0, 0.0, 0.125}},
    PriceRow{"gpt-5.1-codex", {1.25, 10.0, 0.0, 0.125}},
    PriceRow{"gpt-5.1-codex-mini", {0.25, 2.0, 0.0, 0.025}},
    PriceRow{"gpt-5", {1.25, 10.0, 0.0, 0.125}},
    PriceRow{"gpt-5-codex", {1.25, 10.0, 0.0, 0.125}},
    PriceRow{"gpt-5-mini", {0.25, 2.0, 0.0, 0.025}},
    PriceRow{"gpt-5-nano", {0.05, 0.4, 0.0, 0.005}},
    PriceRow{"gpt-4.1", {2.0, 8.0, 0.0, 0.5}},
    PriceRow{"gpt-4.1-mini", {0.4, 1.6, 0.0, 0.1}},
    PriceRow{"o3", {2.0, 8.0, 0.0, 0.5}},
    PriceRow{"o4-mini", {1.1, 4.4, 0.0, 0.275}},
};

qint64 integer(const QJsonObject &object, const QString &key, qint64 otherwise)
{
    const QJsonValue value = object.value(key);
    return value.isDouble() ? qint64(value.toDouble()) : otherwise;
}

} // namespace

double ModelPrice::cost(const TokenCounts &tokens) const
{
    return (double(tokens.input) * input + double(tokens.output) * output
            + double(tokens.cacheCreation) * cacheWrite + double(tokens.cacheRead) * cacheRead)
           / 1e6;
}

std::optional<ModelPrice> publishedPrice(QStringView model)
{
    // "claude-sonnet-4-5-20250929", "claude-sonnet-4-5", "claude-opus-4-6[1m]",
    // "claude-3-5-haiku-latest", "gpt-4.1-2025-04-14": the family is the id
    // without these tails.
    static const QRegularExpression tail(QStringLiteral("(\\[[^\\]]*\\])?$"));
    static const QRegularExpression suffix(
        QStringLiteral("-(\\d{8}|\\d{4}-\\d{2}-\\d{2}|latest)$"));
    QString family = model.toString().toLower();
    family.remove(tail);
    family.remove(suffix);
    for (const auto &table :
         {std::span<const PriceRow>(priceTable), std::span<const PriceRow>(openAIPriceTable)}) {
        for (const PriceRow &row : table) {
            if (family == QLatin1String(row.model))
                return row.price;
        }
    }
    return std::nullopt;
}

void ModelUsage::add(const TokenCounts &tokens, const std::optional<ModelPrice> &price)
{
    inputTokens += tokens.input;
    outputTokens += tokens.output;
    cacheCreationInputTokens += tokens.cacheCreation;
    cacheReadInputTokens += tokens.cacheRead;
    if (!price)
        costUsd.reset();
    else if (costUsd)
        *costUsd += price->cost(tokens);
}

QJsonObject ModelUsage::toJson() const
{
    return {{QStringLiteral("input_tokens"), inputTokens},
            {QStringLiteral("output_tokens"), outputTokens},
            {QStringLiteral("cache_creation_input_tokens"), cacheCreationInputTokens},
            {QStringLiteral("cache_read_input_tokens"), cacheReadInputTokens},
            {QStringLiteral("responses"), responses},
            {QStringLiteral("cost_usd"), costUsd ? QJsonValue(*costUsd) : QJsonValue()}};
}

bool ResponseUsage::readEvent(QByteArrayView name, QByteArrayView data)
{
    const QJsonObject object = QJsonDocument::fromJson(data.toByteArray()).object();
    if (name.startsWith("response."))
        return readResponsesEvent(name, object);
    if (name == "message_start") {
        const QJsonObject message = object.value(QStringLiteral("message")).toObject();
        m_started = true;
        m_model = message.value(QStringLiteral("model")).toString();
        return readUsage(message.value(QStringLiteral("usage")).toObject());
    }
    if (name == "message_delta")
        return readUsage(object.value(QStringLiteral("usage")).toObject());
    if (name == "message_stop") {
        m_stopped = true;
    } else if (name == "error") {
        // Anthropic nests {type, message} in "error"; the Responses API
        // sends {type: "error", code, message} flat.
        const QJsonObject error = object.contains(QStringLiteral("error"))
                                      ? object.value(QStringLiteral("error")).toObject()
                                      : object;
        const QString kind = error.value(QStringLiteral("code"))
                                 .toString(error.value(QStringLiteral("type")).toString());
        m_streamError =
            QStringLiteral("%1: %2").arg(kind, error.value(QStringLiteral("message")).toString());
    }
    return false;
}

bool ResponseUsage::readResponsesEvent(QByteArrayView name, const QJsonObject &event)
{
    const QJsonObject response = event.value(QStringLiteral("response")).toObject();
    if (name == "response.created") {
        m_started = true;
        m_model = response.value(QStringLiteral("model")).toString();
        return false;
    }
    // "incomplete" is a finished reply cut by its token limit: the agent
    // reads the reason; it is no failure of the gateway's.
    if (name == "response.completed" || name == "response.incomplete") {
        m_stopped = true;
        return readResponse(response);
    }
    if (name == "response.failed") {
        const QJsonObject error = response.value(QStringLiteral("error")).toObject();
        m_streamError =
            QStringLiteral("%1: %2").arg(error.value(QStringLiteral("code")).toString(),
                                         error.value(QStringLiteral("message")).toString());
        return readResponse(response);
    }
    return false;
}

bool ResponseUsage::readResponse(const QJsonObject &response)
{
    m_started = true;
    if (const QString model = response.value(QStringLiteral("model")).toString(); !model.isEmpty())
        m_model = model;
    // The Responses API counts cached tokens inside input_tokens; here they
    // are apart, as Anthropic's cache reads are, and priced at their rate.
    const QJsonObject usage = response.value(QStringLiteral("usage")).toObject();
    if (usage.isEmpty())
        return false;
    const TokenCounts before = m_counts;
    const qint64 cached = integer(usage.value(QStringLiteral("input_tokens_details")).toObject(),
                                  QStringLiteral("cached_tokens"), 0);
    m_counts.input =
        std::max<qint64>(0, integer(usage, QStringLiteral("input_tokens"), 0) - cached);
    m_counts.cacheRead = cached;
    m_counts.cacheCreation = 0;
    m_counts.output = integer(usage, QStringLiteral("output_tokens"), 0);
    return !(m_counts == before);
}

bool ResponseUsage::readMessage(const QJsonObject &message)
{
    m_started = true;
    m_stopped = true;
    if (message.value(QStringLiteral("object")).toString() == QLatin1String("response"))
        return readResponse(message);
    m_model = message.value(QStringLiteral("model")).toString();
    return readUsage(message.value(QStringLiteral("usage")).toObject());
}

bool ResponseUsage::readUsage(const QJsonObject &usage)
{
    // message_delta carries cumulative counts, and only those that changed.
    const TokenCounts before = m_counts;
    m_counts.input = integer(usage, QStringLiteral("input_tokens"), m_counts.input);
    m_counts.output = integer(usage, QStringLiteral("output_tokens"), m_counts.output);
    m_counts.cacheCreation =
        integer(usage, QStringLiteral("cache_creation_input_tokens"), m_counts.cacheCreation);
    m_counts.cacheRead =
        integer(usage, QStringLiteral("cache_read_input_tokens"), m_counts.cacheRead);
    return !(m_counts == before);
}

} // namespace arizuko::gateway
