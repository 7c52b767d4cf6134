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
    static constexpr QByteArrayView releasePrefix = "/script/release/";
    if (request.method == "POST" && request.path.startsWith(releasePrefix))
        return release(exchange, QString::fromUtf8(request.path.sliced(releasePrefix.size())));
    ScriptedReply reply = m_model->reply(request.method, request.path, request.body);
    const QString hold = reply.hold;
    auto *player = new ScriptPlayer(std::move(reply), exchange);
    if (hold.isEmpty() || m_released.contains(hold))
        player->start();
    else
        m_held.insert(hold, player);
}

void ScriptedServer::release(HttpExchange *exchange, const QString &name)
{
    m_released.insert(name);
    const QList<QPointer<ScriptPlayer>> held = m_held.values(name);
    m_held.remove(name);
    int started = 0;
    for (const QPointer<ScriptPlayer> &player : held) {
        if (player) {
            player->start();
            ++started;
        }
    }
    exchange->respond(200, {HttpHeader("content-type", "application/json")},
                      QJsonDocument(QJsonObject{{QStringLiteral("released"), name},
                                                {QStringLiteral("replies"), started}})
                          .toJson(QJsonDocument::Compact));
}

} // namespace arizuko::gateway
