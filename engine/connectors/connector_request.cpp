#include "connectors/connector_request.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace arizuko::connectors {
namespace {

// A path value longer than this is no identifier any API takes.
constexpr qsizetype maxPathValue = 1024;
constexpr qsizetype maxValue = 64 * 1024;

Error badArgument(const QString &message)
{
    return makeError(QStringLiteral("connectors.bad-argument"), message);
}

QJsonValue schemaType(ParamType type)
{
    return paramTypeName(type);
}

// The argument as the typed value the request carries.
Result<QJsonValue> typedValue(const Parameter &parameter, const QJsonValue &sent)
{
    switch (parameter.type) {
    case ParamType::String:
        if (!sent.isString())
            return badArgument(QStringLiteral("'%1' must be a string").arg(parameter.name));
        if (sent.toString().size() > maxValue)
            return badArgument(QStringLiteral("'%1' is too long").arg(parameter.name));
        return sent;
    case ParamType::Integer: {
        static const QRegularExpression digits(QStringLiteral("^-?[0-9]{1,15}$"));
        if (sent.isDouble() && sent.toDouble() == double(sent.toInteger()))
            return QJsonValue(sent.toInteger());
        if (sent.isString() && digits.match(sent.toString()).hasMatch())
            return QJsonValue(sent.toString().toLongLong());
        return badArgument(QStringLiteral("'%1' must be an integer").arg(parameter.name));
    }
    case ParamType::Boolean:
        if (sent.isBool())
            return sent;
        if (sent.toString() == QLatin1String("true") || sent.toString() == QLatin1String("false"))
            return QJsonValue(sent.toString() == QLatin1String("true"));
        return badArgument(QStringLiteral("'%1' must be true or false").arg(parameter.name));
    }
    return badArgument(parameter.name);
}

QString textOf(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toInteger());
    return value.toString();
}

// Nothing is left unencoded but the unreserved characters, so `/`, `?`,
// `#`, `%`, CR, LF and every non-ASCII byte become %XX inside the segment.
QByteArray encodedSegment(const QString &value)
{
    return QUrl::toPercentEncoding(value);
}

// `.` and `..` are the two segments that mean something to a path even
// unencoded; an empty one would merge two segments.
bool isPlainSegment(const QString &text)
{
    return !text.isEmpty() && text != QLatin1String(".") && text != QLatin1String("..");
}

// A path value as the segments it fills: one segment, or, for a param that
// spans segments, each `/`-separated part as one, none of them empty, `.`
// or `..`.
Result<QByteArray> encodedPathValue(const Parameter &parameter, const QString &text)
{
    const QStringList parts = parameter.segments ? text.split(QLatin1Char('/')) : QStringList{text};
    const bool plain = std::all_of(parts.cbegin(), parts.cend(), isPlainSegment);
    if (!plain || text.size() > maxPathValue)
        return badArgument(
            (parameter.segments
                 ? QStringLiteral("'%1' is a path whose parts may not be empty, '.' or '..', "
                                  "at most %2 characters")
                 : QStringLiteral("'%1' may not be empty, '.', '..' or longer than %2 characters"))
                .arg(parameter.name)
                .arg(maxPathValue));
    QByteArrayList encoded;
    for (const QString &part : parts)
        encoded << encodedSegment(part);
    return encoded.join('/');
}

bool hasLineBreakOrNul(const QByteArray &value)
{
    return value.contains('\r') || value.contains('\n') || value.contains('\0');
}

} // namespace

QJsonObject inputSchema(const Operation &operation)
{
    QJsonObject properties;
    QJsonArray required;
    for (const Parameter &parameter : operation.parameters) {
        QJsonObject property{{QStringLiteral("type"), schemaType(parameter.type)}};
        if (!parameter.description.isEmpty())
            property.insert(QStringLiteral("description"), parameter.description);
        properties.insert(parameter.name, property);
        if (parameter.required)
            required.append(parameter.name);
    }
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), required},
            {QStringLiteral("additionalProperties"), false}};
}

Result<QJsonObject> typedArguments(const Operation &operation, const QJsonObject &arguments)
{
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        const bool declared =
            std::any_of(operation.parameters.cbegin(), operation.parameters.cend(),
                        [&it](const Parameter &parameter) { return parameter.name == it.key(); });
        if (!declared)
            return badArgument(
                QStringLiteral("%1 takes no argument '%2'").arg(operation.tool, it.key()));
    }
    QJsonObject typed;
    for (const Parameter &parameter : operation.parameters) {
        const QJsonValue sent = arguments.value(parameter.name);
        if (sent.isUndefined() || sent.isNull()) {
            if (parameter.required)
                return badArgument(QStringLiteral("%1 needs the argument '%2'")
                                       .arg(operation.tool, parameter.name));
            continue;
        }
        const auto value = typedValue(parameter, sent);
        if (!value)
            return value.error();
        typed.insert(parameter.name, *value);
    }
    return typed;
}

Result<PreparedRequest> prepareRequest(const Connector &connector, const Operation &operation,
                                       const QUrl &origin, const QJsonObject &arguments,
                                       const QList<SecretValue> &secrets)
{
    const auto typed = typedArguments(operation, arguments);
    if (!typed)
        return typed.error();
    QHash<QString, QByteArray> segments;
    QByteArrayList query;
    QJsonObject body;
    for (const Parameter &parameter : operation.parameters) {
        const QJsonValue value = typed->value(parameter.name);
        if (value.isUndefined())
            continue;
        switch (parameter.place) {
        case ParamPlace::Path: {
            const auto encoded = encodedPathValue(parameter, textOf(value));
            if (!encoded)
                return encoded.error();
            segments.insert(parameter.name, *encoded);
            break;
        }
        case ParamPlace::Query:
            query << parameter.name.toLatin1() + '=' + encodedSegment(textOf(value));
            break;
        case ParamPlace::Body:
            body.insert(parameter.name, value);
            break;
        }
    }

    QByteArray path = origin.path(QUrl::FullyEncoded).toLatin1();
    for (const QString &segment : operation.path.mid(1).split(QLatin1Char('/'))) {
        path += '/';
        if (segment.startsWith(QLatin1Char('{')))
            path += segments.value(segment.mid(1, segment.size() - 2));
        else
            path += segment.toLatin1();
    }

    PreparedRequest request;
    request.method = operation.method;
    request.path = path;
    request.headers = connector.headers;
    request.headers.append(Header{"User-Agent", "arizuko-desktop"});
    for (const SecretValue &secret : secrets) {
        if (secret.value.isEmpty() || hasLineBreakOrNul(secret.value))
            return makeError(
                QStringLiteral("connectors.bad-secret"),
                QStringLiteral("the secret %1 is empty or holds a line break").arg(secret.key));
    }
    switch (connector.auth) {
    case AuthKind::Bearer:
        request.headers.append(Header{"Authorization", "Bearer " + secrets.value(0).value});
        break;
    case AuthKind::ApiKeyHeader:
        request.headers.append(Header{connector.authName.toLatin1(), secrets.value(0).value});
        break;
    case AuthKind::ApiKeyQuery:
        query << connector.authName.toLatin1() + '=' +
                     QUrl::toPercentEncoding(QString::fromUtf8(secrets.value(0).value));
        break;
    case AuthKind::Basic:
        request.headers.append(
            Header{"Authorization",
                   "Basic " + (secrets.value(0).value + ':' + secrets.value(1).value).toBase64()});
        break;
    }
    if (!body.isEmpty()) {
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        request.headers.append(Header{"Content-Type", "application/json"});
    }

    QByteArray encoded = origin.toEncoded(QUrl::RemovePath | QUrl::RemoveQuery |
                                          QUrl::RemoveFragment | QUrl::RemoveUserInfo) +
                         path;
    if (!query.isEmpty())
        encoded += '?' + query.join('&');
    request.url = QUrl::fromEncoded(encoded, QUrl::StrictMode);
    // The same URL read back must still be the origin's host and exactly
    // the path built above: the last word on "nothing left the path".
    if (!request.url.isValid() || request.url.scheme() != QLatin1String("https") ||
        request.url.host() != origin.host() || request.url.port() != origin.port() ||
        request.url.path(QUrl::FullyEncoded).toLatin1() != path || request.url.hasFragment())
        return makeError(QStringLiteral("connectors.bad-url"),
                         QStringLiteral("%1: the arguments would not stay inside %2's declared "
                                        "path %3; refused")
                             .arg(operation.tool, connector.service, operation.path));
    return request;
}

QByteArray scrubSecrets(QByteArray text, const QList<SecretValue> &secrets)
{
    QList<SecretValue> forms;
    for (const SecretValue &secret : secrets) {
        forms << secret
              << SecretValue{secret.key, QUrl::toPercentEncoding(QString::fromUtf8(secret.value))}
              << SecretValue{secret.key, secret.value.toBase64()};
    }
    if (secrets.size() == 2)
        forms << SecretValue{secrets.at(0).key + QLatin1Char('+') + secrets.at(1).key,
                             (secrets.at(0).value + ':' + secrets.at(1).value).toBase64()};
    // The longest form first, so a value inside another is not half-replaced.
    std::sort(forms.begin(), forms.end(), [](const SecretValue &a, const SecretValue &b) {
        return a.value.size() > b.value.size();
    });
    for (const SecretValue &form : std::as_const(forms)) {
        if (!form.value.isEmpty())
            text.replace(form.value, "[secret " + form.key.toLatin1() + ']');
    }
    return text;
}

} // namespace arizuko::connectors
