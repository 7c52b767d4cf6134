#pragma once

// A ScriptedModel served over HTTP on its own: the upstream of
// `arizukoctl model serve`, of the gateway's tests and of its benchmark.

#include "core/result.h"
#include "gateway/http_server.h"
#include "gateway/scripted_model.h"

#include <QJsonObject>
#include <QMultiHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <memory>

namespace arizuko::gateway {

class ScriptPlayer;

class ScriptedServer final : public QObject
{
    Q_OBJECT

public:
    ScriptedServer(std::shared_ptr<const ScriptedModel> model, HttpServerOptions options,
                   QObject *parent = nullptr);

    Result<void> listen() { return m_server.listen(); }
    void close() { m_server.close(); }
    quint16 port() const { return m_server.port(); }
    QHostAddress address() const { return m_server.address(); }

signals:
    // Every request as it came: method, path, all headers, body (parsed
    // JSON where it is JSON). Tests read it to see what reached the upstream.
    void requestLogged(const QJsonObject &entry);

private:
    void answer(HttpExchange *exchange);
    // POST /script/release/NAME: every reply held under NAME goes out, and
    // every later one passes at once. A test releases a hold when it has
    // done what the model's pause was for, instead of guessing a delay.
    void release(HttpExchange *exchange, const QString &name);

    std::shared_ptr<const ScriptedModel> m_model;
    HttpServer m_server;
    QSet<QString> m_released;
    // Replies waiting for their name; a player ends with its exchange.
    QMultiHash<QString, QPointer<ScriptPlayer>> m_held;
};

// The request as one JSON object, for logs: {method, path, headers, body}.
QJsonObject describeRequest(const HttpRequest &request);

} // namespace arizuko::gateway
