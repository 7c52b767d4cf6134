#pragma once

// A minimal HTTP/1.1 server on QTcpServer for the model gateway and the
// scripted upstream: Content-Length requests, keep-alive, a deadline per
// phase, one peer address if asked, and replies that are either whole or
// streamed chunk by chunk the moment they are written.

#include "core/result.h"
#include "gateway/budget.h"
#include "gateway/http_request.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

class QTcpSocket;

namespace arizuko::gateway {

// Why a request is turned away once its head is in: the status and the
// sentence the client reads in the API's error JSON.
struct HttpRefusal
{
    int status = 400;
    QString message;
};

struct HttpServerOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0;                 // 0: any free port
    std::optional<QHostAddress> peer; // when set, every other peer is dropped at once
    HttpLimits limits;
    // From a request's first byte to the blank line ending its head.
    std::chrono::milliseconds headTimeout = std::chrono::seconds(10);
    // From the end of the head to the body's last byte.
    std::chrono::milliseconds bodyTimeout = std::chrono::seconds(60);
    // A connection with nothing asked of it (new, or kept alive).
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(120);
    // Open connections of this server (0: no cap), and of every server
    // sharing `allConnections`: one over either is closed as it is accepted.
    qint64 maxConnections = 0;
    std::shared_ptr<Budget> allConnections;
    // Bytes of request bodies held at once (from the head that announces
    // one to the end of its reply), here and in all sharing servers: a
    // request over either is answered 503 before its body is read.
    qint64 maxBodyBytesHeld = 0;
    std::shared_ptr<Budget> allBodyBytes;
    // Asked once a request's head is in, before a byte of its body is
    // read: a refusal is answered and the connection closed.
    std::function<std::optional<HttpRefusal>(const HttpRequest &head)> admit;
};

class HttpConnection;

// One request and its reply. Owned by its connection; gone with it, so
// keep it in a QPointer across the event loop.
class HttpExchange final : public QObject
{
    Q_OBJECT

public:
    HttpExchange(HttpRequest request, QHostAddress peer, HttpConnection *connection);

    const HttpRequest &request() const { return m_request; }
    // The body handed on in place of the one received (the gateway's own
    // serialization of what it checked).
    void replaceBody(QByteArray body) { m_request.body = std::move(body); }
    const QHostAddress &peer() const { return m_peer; }

    // A whole reply with Content-Length. A HEAD request gets the head only.
    void respond(int status, const HttpHeaders &headers, const QByteArray &body);
    // A streamed reply: chunked transfer coding, each write sent at once.
    void beginStream(int status, const HttpHeaders &headers);
    void writeChunk(const QByteArray &data);
    void endStream();
    // Closes the connection without finishing the reply: the client sees
    // the response cut short, as when an upstream drops mid-stream.
    void abortConnection();

    bool isAnswered() const { return m_started; }
    int status() const { return m_status; }
    bool isFinished() const { return m_finished; }

signals:
    // The client went away (or the server closed) before the reply ended.
    void clientGone();

private:
    friend class HttpConnection;
    QByteArray head(int status, const HttpHeaders &headers, bool chunked) const;

    HttpRequest m_request;
    QHostAddress m_peer;
    QPointer<HttpConnection> m_connection;
    int m_status = 0;
    bool m_started = false;
    bool m_finished = false;
};

// Reads requests from one socket, one at a time (pipelined ones wait
// their turn), and closes on a protocol error, a deadline or a reply that
// asked for it.
class HttpConnection final : public QObject
{
    Q_OBJECT

public:
    HttpConnection(QTcpSocket *socket, const HttpServerOptions &options, BudgetShare slot,
                   std::shared_ptr<Budget> serverBodyBytes, QObject *parent);
    ~HttpConnection() override;

    void abort();

signals:
    void requestReceived(arizuko::gateway::HttpExchange *exchange);
    // A request turned away by the server itself (malformed, too large,
    // too slow, no room for its body): {reason, status, detail, method?, path?}.
    void requestRefused(const QJsonObject &why);
    void closed();

private:
    friend class HttpExchange;
    void readRequests();
    bool admitBody();
    void write(const QByteArray &bytes);
    void exchangeFinished(bool keepAlive);
    void refuse(int status, const QByteArray &reason, const QString &recordAs = {});
    void close();

    QTcpSocket *m_socket;
    HttpServerOptions m_options;
    HttpRequestParser m_parser;
    QByteArray m_buffer;
    QTimer m_deadline;
    QPointer<HttpExchange> m_exchange;
    BudgetShare m_slot;      // this connection's place under the caps
    BudgetShare m_bodyBytes; // the body of the request under way
    std::shared_ptr<Budget> m_serverBodyBytes;
    bool m_closing = false; // nothing more is written or read
    bool m_closed = false;  // closed() was emitted
};

class HttpServer final : public QObject
{
    Q_OBJECT

public:
    explicit HttpServer(HttpServerOptions options, QObject *parent = nullptr);
    ~HttpServer() override;

    // The error names address:port and why it could not be bound.
    Result<void> listen();
    // Stops accepting and drops every connection, mid-reply or not.
    void close();

    quint16 port() const { return m_server.serverPort(); }
    QHostAddress address() const { return m_server.serverAddress(); }
    bool isListening() const { return m_server.isListening(); }

signals:
    void requestReceived(arizuko::gateway::HttpExchange *exchange);
    // A connection from another address than the one peer served.
    void peerRefused(const QHostAddress &peer);
    // A request the server turned away itself (see HttpConnection), or
    // {reason: "connections"} for the first connection closed over a cap
    // (one per run of them, so a flood records one line).
    void requestRefused(const QJsonObject &why);

private:
    void acceptConnections();

    HttpServerOptions m_options;
    QTcpServer m_server;
    QList<QPointer<HttpConnection>> m_connections;
    std::shared_ptr<Budget> m_connectionCount;
    std::shared_ptr<Budget> m_bodyBytes;
    bool m_overCap = false;
};

// The reason phrase of a status the gateway uses ("Not Found").
QByteArray reasonPhrase(int status);

} // namespace arizuko::gateway
