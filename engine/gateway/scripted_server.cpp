#include "gateway/scripted_server.h"

#include "gateway/script_player.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace arizuko::gateway {

QJsonObject describeRequest(const HttpRequest &request)
{
    QJsonObject headers;
    for (const HttpHeader &header : request.headers)
        headers.insert(QString::fromLatin1(header.first).toLower(),
                       QString::fromLatin1(header.second));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &error);
    const QJsonValue body = request.body.isEmpty() ? QJsonValue()
                            : error.error == QJsonParseError::NoError
                                ? (document.isObject() ? QJsonValue(document.object())
                                                       : QJsonValue(document.array()))
                                : QJsonValue(QString::fromUtf8(request.body));
    return {{QStringLiteral("method"), QString::fromLatin1(request.method)},
            {QStringLiteral("path"), QString::fromLatin1(request.target)},
            {QStringLiteral("headers"), headers},
            {QStringLiteral("body"), body}};
}

ScriptedServer::ScriptedServer(std::shared_ptr<const ScriptedModel> model,
                               HttpServerOptions options, QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_server(std::move(options))
{
    connect(&m_server, &HttpServer::requestReceived, this, &ScriptedServer::answer);
}

void ScriptedServer::answer(HttpExchange *exchange)
{
    const HttpRequest &request = exchange->request();
    emit requestLogged(describeRequest(request));
    auto *player =
        new ScriptPlayer(m_model->reply(request.method, request.path, request.body), exchange);
    player->start();
}

} // namespace arizuko::gateway
