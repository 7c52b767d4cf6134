#include "gateway/model_usage.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <array>

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
    // "claude-3-5-haiku-latest": the family is the id without these tails.
    static const QRegularExpression tail(QStringLiteral("(\\[[^\\]]*\\])?$"));
    static const QRegularExpression suffix(QStringLiteral("-(\\d{8}|latest)$"));
    QString family = model.toString().toLower();
    family.remove(tail);
    family.remove(suffix);
    for (const PriceRow &row : priceTable) {
        if (family == QLatin1String(row.model))
            return row.price;
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
        const QJsonObject error = object.value(QStringLiteral("error")).toObject();
        m_streamError = QStringLiteral("%1: %2").arg(
            error.value(QStringLiteral("type")).toString(),
            error.value(QStringLiteral("message")).toString());
    }
    return false;
}

bool ResponseUsage::readMessage(const QJsonObject &message)
{
    m_started = true;
    m_stopped = true;
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
