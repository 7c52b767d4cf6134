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

} // namespace arizuko::gateway
