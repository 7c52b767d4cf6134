#include "gateway/api_error.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace arizuko::gateway {

QString anthropicErrorType(int status)
{
    // The types the API documents for each status (docs.anthropic.com, "Errors").
    switch (status) {
    case 400: return QStringLiteral("invalid_request_error");
    case 401: return QStringLiteral("authentication_error");
    case 403: return QStringLiteral("permission_error");
    case 404: return QStringLiteral("not_found_error");
    case 413: return QStringLiteral("request_too_large");
    case 429: return QStringLiteral("rate_limit_error");
    case 529: return QStringLiteral("overloaded_error");
    default:
        return status < 500 ? QStringLiteral("invalid_request_error") : QStringLiteral("api_error");
    }
}

QByteArray anthropicErrorBody(const QString &type, const QString &message)
{
    const QJsonObject error{{QStringLiteral("type"), type}, {QStringLiteral("message"), message}};
    return QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                     {QStringLiteral("error"), error}})
        .toJson(QJsonDocument::Compact);
}

QByteArray anthropicErrorBody(int status, const QString &message)
{
    return anthropicErrorBody(anthropicErrorType(status), message);
}

QByteArray openAIErrorBody(int status, const QString &message, const QString &type)
{
    // OpenAI's error codes for the statuses a script or the gateway gives
    // (platform.openai.com/docs/guides/error-codes).
    QString code;
    switch (status) {
    case 401:
        code = QStringLiteral("invalid_api_key");
        break;
    case 429:
        code = QStringLiteral("rate_limit_exceeded");
        break;
    default:
        break;
    }
    const QString kind = !type.isEmpty() ? type
                         : status >= 500 ? QStringLiteral("server_error")
                                         : QStringLiteral("invalid_request_error");
    const QJsonObject error{
        {QStringLiteral("message"), message},
        {QStringLiteral("type"), kind},
        {QStringLiteral("param"), QJsonValue()},
        {QStringLiteral("code"), code.isEmpty() ? QJsonValue() : QJsonValue(code)}};
    return QJsonDocument(QJsonObject{{QStringLiteral("error"), error}})
        .toJson(QJsonDocument::Compact);
}

} // namespace arizuko::gateway
