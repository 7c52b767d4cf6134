// Reading and checking a model script (docs/model-gateway.md, "Script
// format"): variables first, then every field, so a mistake is reported
// with its place ("exchanges[1].steps[0].tool_use.name") before any turn
// depends on it.

#include "gateway/scripted_model.h"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace arizuko::gateway {

class ScriptLoader
{
public:
    explicit ScriptLoader(const QMap<QString, QString> &variables) : m_variables(variables) {}

    Result<ScriptedModel> load(const QByteArray &json);

private:
    QJsonValue substitute(const QJsonValue &value, const QString &where);
    bool checkKeys(const QJsonObject &object, const QString &where, const QSet<QString> &known);
    // The value as an object with only `known` keys, or nullopt after fail().
    std::optional<QJsonObject> object(const QJsonValue &value, const QString &where,
                                      const QString &shape, const QSet<QString> &known);
    std::optional<ScriptedStep> step(const QJsonValue &value, const QString &where);
    std::optional<ScriptedToolUse> toolUse(const QJsonValue &value, const QString &where);
    std::optional<ScriptedError> error(const QJsonValue &value, const QString &where);
    std::optional<qint64> integer(const QJsonObject &object, const QString &key,
                                  const QString &where, qint64 minimum);
    void fail(const QString &where, const QString &why)
    {
        if (m_error.isEmpty())
            m_error = where.isEmpty() ? why : where + QStringLiteral(": ") + why;
    }

    const QMap<QString, QString> &m_variables;
    QString m_error;
};

namespace {

QString at(const QString &where, const QString &key)
{
    return where.isEmpty() ? key : where + QLatin1Char('.') + key;
}

QString at(const QString &where, qsizetype index)
{
    return where + QStringLiteral("[%1]").arg(index);
}

} // namespace

QJsonValue ScriptLoader::substitute(const QJsonValue &value, const QString &where)
{
    static const QRegularExpression variable(QStringLiteral("\\$\\{([^}]*)\\}"));
    if (value.isString()) {
        QString text = value.toString();
        QString result;
        qsizetype last = 0;
        for (auto match = variable.globalMatch(text); match.hasNext();) {
            const QRegularExpressionMatch found = match.next();
            const QString name = found.captured(1);
            if (!m_variables.contains(name)) {
                fail(where, QStringLiteral("unknown variable ${%1} (known: %2)")
                                .arg(name, m_variables.isEmpty()
                                               ? QStringLiteral("none")
                                               : m_variables.keys().join(QStringLiteral(", "))));
                return value;
            }
            result += QStringView(text).sliced(last, found.capturedStart() - last);
            result += m_variables.value(name);
            last = found.capturedEnd();
        }
        result += QStringView(text).sliced(last);
        return result;
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype index = 0; index < array.size(); ++index)
            array[index] = substitute(array[index], at(where, index));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            it.value() = substitute(it.value(), at(where, it.key()));
        return object;
    }
    return value;
}

bool ScriptLoader::checkKeys(const QJsonObject &object, const QString &where,
                             const QSet<QString> &known)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        // "comment" is allowed anywhere: JSON has no comments of its own.
        if (!known.contains(it.key()) && it.key() != QLatin1String("comment")) {
            QStringList names = known.values();
            names.sort();
            fail(at(where, it.key()), QStringLiteral("unknown field (expected one of: %1)")
                                          .arg(names.join(QStringLiteral(", "))));
            return false;
        }
    }
    return true;
}

std::optional<QJsonObject> ScriptLoader::object(const QJsonValue &value, const QString &where,
                                               const QString &shape, const QSet<QString> &known)
{
    if (!value.isObject()) {
        fail(where, QStringLiteral("must be an object") + shape);
        return std::nullopt;
    }
    const QJsonObject result = value.toObject();
    if (!checkKeys(result, where, known))
        return std::nullopt;
    return result;
}

std::optional<qint64> ScriptLoader::integer(const QJsonObject &object, const QString &key,
                                            const QString &where, qint64 minimum)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return std::nullopt;
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number != double(qint64(number)) || number < double(minimum)) {
        fail(at(where, key), QStringLiteral("must be a whole number >= %1").arg(minimum));
        return std::nullopt;
    }
    return qint64(number);
}

std::optional<ScriptedToolUse> ScriptLoader::toolUse(const QJsonValue &value, const QString &where)
{
    const auto checked =
        this->object(value, where, QStringLiteral(" {name, input, id?}"),
                     {QStringLiteral("name"), QStringLiteral("input"), QStringLiteral("id")});
    if (!checked)
        return std::nullopt;
    const QJsonObject &object = *checked;
    ScriptedToolUse use;
    use.name = object.value(QStringLiteral("name")).toString();
    if (use.name.isEmpty()) {
        fail(at(where, QStringLiteral("name")), QStringLiteral("must be a non-empty string"));
        return std::nullopt;
    }
    const QJsonValue input = object.value(QStringLiteral("input"));
    if (!input.isUndefined() && !input.isObject()) {
        fail(at(where, QStringLiteral("input")), QStringLiteral("must be an object"));
        return std::nullopt;
    }
    use.input = input.toObject();
    const QJsonValue id = object.value(QStringLiteral("id"));
    if (!id.isUndefined() && (!id.isString() || id.toString().isEmpty())) {
        fail(at(where, QStringLiteral("id")), QStringLiteral("must be a non-empty string"));
        return std::nullopt;
    }
    use.id = id.toString();
    return use;
}

std::optional<ScriptedError> ScriptLoader::error(const QJsonValue &value, const QString &where)
{
    const auto checked = this->object(value, where, QStringLiteral(" {status, type?, message?}"),
                                      {QStringLiteral("status"), QStringLiteral("type"),
                                       QStringLiteral("message"), QStringLiteral("should_retry")});
    if (!checked)
        return std::nullopt;
    const QJsonObject &object = *checked;
    ScriptedError scripted;
    const auto status = integer(object, QStringLiteral("status"), where, 400);
    if (!status || *status > 599) {
        fail(at(where, QStringLiteral("status")),
             QStringLiteral("must be an HTTP error status (400-599)"));
        return std::nullopt;
    }
    scripted.status = int(*status);
    scripted.type = object.value(QStringLiteral("type")).toString();
    scripted.message = object.value(QStringLiteral("message"))
                           .toString(QStringLiteral("scripted error %1").arg(scripted.status));
    const QJsonValue retry = object.value(QStringLiteral("should_retry"));
    if (retry.isBool())
        scripted.shouldRetry = retry.toBool();
    else if (!retry.isUndefined())
        fail(at(where, QStringLiteral("should_retry")), QStringLiteral("must be true or false"));
    return scripted;
}

std::optional<ScriptedStep> ScriptLoader::step(const QJsonValue &value, const QString &where)
{
    const auto checked = this->object(value, where, QString(),
                                      {QStringLiteral("text"), QStringLiteral("tool_use"),
                                       QStringLiteral("error"), QStringLiteral("drop_after_events"),
                                       QStringLiteral("delay_ms"), QStringLiteral("event_delay_ms"),
                                       QStringLiteral("hold"), QStringLiteral("usage")});
    if (!checked)
        return std::nullopt;
    const QJsonObject &object = *checked;
    ScriptedStep step;
    const QJsonValue text = object.value(QStringLiteral("text"));
    if (!text.isUndefined() && !text.isString()) {
        fail(at(where, QStringLiteral("text")), QStringLiteral("must be a string"));
        return std::nullopt;
    }
    step.text = text.toString();
    const QJsonValue uses = object.value(QStringLiteral("tool_use"));
    const QString usesAt = at(where, QStringLiteral("tool_use"));
    if (uses.isArray()) {
        const QJsonArray array = uses.toArray();
        for (qsizetype index = 0; index < array.size(); ++index) {
            const auto use = toolUse(array[index], at(usesAt, index));
            if (!use)
                return std::nullopt;
            step.toolUses.append(*use);
        }
    } else if (!uses.isUndefined()) {
        const auto use = toolUse(uses, usesAt);
        if (!use)
            return std::nullopt;
        step.toolUses.append(*use);
    }
    if (object.contains(QStringLiteral("error"))) {
        step.error =
            error(object.value(QStringLiteral("error")), at(where, QStringLiteral("error")));
        if (!step.error)
            return std::nullopt;
    }
    if (step.text.isEmpty() && step.toolUses.isEmpty() && !step.error) {
        fail(where, QStringLiteral("needs text, tool_use or error"));
        return std::nullopt;
    }
    step.dropAfterEvents =
        int(integer(object, QStringLiteral("drop_after_events"), where, 0).value_or(-1));
    step.delay = std::chrono::milliseconds(
        integer(object, QStringLiteral("delay_ms"), where, 0).value_or(0));
    step.eventDelay = std::chrono::milliseconds(
        integer(object, QStringLiteral("event_delay_ms"), where, 0).value_or(0));
    const QJsonValue hold = object.value(QStringLiteral("hold"));
    static const QRegularExpression holdName(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    if (!hold.isUndefined() && !holdName.match(hold.toString()).hasMatch()) {
        fail(at(where, QStringLiteral("hold")),
             QStringLiteral("must be a name of letters, digits, '_', '.' or '-'"));
        return std::nullopt;
    }
    step.hold = hold.toString();
    if (object.contains(QStringLiteral("usage"))) {
        const QJsonObject usage = object.value(QStringLiteral("usage")).toObject();
        const QString usageAt = at(where, QStringLiteral("usage"));
        if (!checkKeys(usage, usageAt,
                       {QStringLiteral("input_tokens"), QStringLiteral("output_tokens")}))
            return std::nullopt;
        step.inputTokens = integer(usage, QStringLiteral("input_tokens"), usageAt, 0);
        step.outputTokens = integer(usage, QStringLiteral("output_tokens"), usageAt, 0);
    }
    if (!m_error.isEmpty())
        return std::nullopt;
    return step;
}

Result<ScriptedModel> ScriptLoader::load(const QByteArray &json)
{
    const auto invalid = [](const QString &why) {
        return makeError(QStringLiteral("gateway.bad-script"),
                         QStringLiteral("model script: %1").arg(why));
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalid(QStringLiteral("not JSON: %1 at byte %2")
                           .arg(parseError.errorString())
                           .arg(parseError.offset));
    if (!document.isObject())
        return invalid(QStringLiteral("must be a JSON object"));
    const QJsonObject root = substitute(document.object(), QString()).toObject();
    if (!m_error.isEmpty())
        return invalid(m_error);
    if (!checkKeys(
            root, QString(),
            {QStringLiteral("name"), QStringLiteral("exchanges"), QStringLiteral("fallback")}))
        return invalid(m_error);

    ScriptedModel model;
    model.m_name = root.value(QStringLiteral("name")).toString(QStringLiteral("script"));
    const QJsonValue exchanges = root.value(QStringLiteral("exchanges"));
    if (!exchanges.isUndefined() && !exchanges.isArray())
        return invalid(QStringLiteral("exchanges: must be an array"));
    const QJsonArray exchangeArray = exchanges.toArray();
    for (qsizetype index = 0; index < exchangeArray.size(); ++index) {
        const QString where = at(QStringLiteral("exchanges"), index);
        const auto checked = this->object(exchangeArray[index], where, QString(),
                                          {QStringLiteral("prompt"), QStringLiteral("steps")});
        if (!checked)
            return invalid(m_error);
        const QJsonObject &object = *checked;
        ScriptedExchange exchange;
        const QJsonValue prompt = object.value(QStringLiteral("prompt"));
        if (!prompt.isUndefined() && !prompt.isString())
            return invalid(at(where, QStringLiteral("prompt")) +
                           QStringLiteral(": must be a string"));
        exchange.prompt = prompt.toString().toLower();
        if (exchange.prompt == QLatin1String("*"))
            exchange.prompt.clear();
        const QJsonArray steps = object.value(QStringLiteral("steps")).toArray();
        if (steps.isEmpty())
            return invalid(at(where, QStringLiteral("steps")) +
                           QStringLiteral(": must be a non-empty array"));
        for (qsizetype stepIndex = 0; stepIndex < steps.size(); ++stepIndex) {
            const auto parsed =
                step(steps[stepIndex], at(at(where, QStringLiteral("steps")), stepIndex));
            if (!parsed)
                return invalid(m_error);
            exchange.steps.append(*parsed);
        }
        model.m_exchanges.append(exchange);
    }
    model.m_fallback.text =
        QStringLiteral("(scripted model) Nothing is scripted for this request.");
    if (root.contains(QStringLiteral("fallback"))) {
        const auto fallback =
            step(root.value(QStringLiteral("fallback")), QStringLiteral("fallback"));
        if (!fallback)
            return invalid(m_error);
        model.m_fallback = *fallback;
    }
    model.m_textOnlyFallback.text = model.m_fallback.text.isEmpty()
                                        ? QStringLiteral("(scripted model) OK.")
                                        : model.m_fallback.text;
    return model;
}

Result<ScriptedModel> ScriptedModel::load(const QByteArray &json,
                                          const QMap<QString, QString> &variables)
{
    return ScriptLoader(variables).load(json);
}

Result<ScriptedModel> ScriptedModel::loadFile(const QString &path,
                                              const QMap<QString, QString> &variables)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(
            QStringLiteral("gateway.bad-script"),
            QStringLiteral("cannot read model script %1: %2").arg(path, file.errorString()));
    auto model = load(file.readAll(), variables);
    if (!model)
        return makeError(model.error().code, path + QStringLiteral(": ") + model.error().message);
    return model;
}

Result<ScriptedModel> ScriptedModel::demo(const QMap<QString, QString> &variables)
{
    return loadFile(demoScriptPath, variables);
}

} // namespace arizuko::gateway
