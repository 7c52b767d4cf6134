#include "gateway/http_server.h"

#include "gateway/api_error.h"

#include <QTcpSocket>

namespace arizuko::gateway {

namespace {

// What Qt may buffer of one connection's input before the kernel holds the rest.
constexpr qint64 socketReadBufferBytes = 64 * 1024;

} // namespace

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    case 529: return "Overloaded";
    default: return status < 400 ? "OK" : "Error";
    }
}

HttpExchange::HttpExchange(HttpRequest request, QHostAddress peer, HttpConnection *connection)
    : QObject(connection)
    , m_request(std::move(request))
    , m_peer(std::move(peer))
    , m_connection(connection)
{}

QByteArray HttpExchange::head(int status, const HttpHeaders &headers, bool chunked) const
{
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const HttpHeader &header : headers)
        head += header.first + ": " + header.second + "\r\n";
    if (chunked)
        head += "Transfer-Encoding: chunked\r\n";
    if (!m_request.keepAlive())
        head += "Connection: close\r\n";
    return head;
}

void HttpExchange::respond(int status, const HttpHeaders &headers, const QByteArray &body)
{
    if (m_started || !m_connection)
        return;
    m_started = true;
    m_finished = true;
    m_status = status;
    QByteArray bytes = head(status, headers, false);
    bytes += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    if (m_request.method != "HEAD")
        bytes += body;
    m_connection->write(bytes);
    m_connection->exchangeFinished(m_request.keepAlive());
}

void HttpExchange::beginStream(int status, const HttpHeaders &headers)
{
    if (m_started || !m_connection)
        return;
    m_started = true;
    m_status = status;
    m_connection->write(head(status, headers, true) + "\r\n");
}

void HttpExchange::writeChunk(const QByteArray &data)
{
    if (!m_started || m_finished || !m_connection || data.isEmpty())
        return;
    m_connection->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

void HttpExchange::endStream()
{
    if (!m_started || m_finished || !m_connection)
        return;
    m_finished = true;
    m_connection->write("0\r\n\r\n");
    m_connection->exchangeFinished(m_request.keepAlive());
}

void HttpExchange::abortConnection()
{
    m_finished = true;
    if (m_connection)
        m_connection->abort();
}

HttpConnection::HttpConnection(QTcpSocket *socket, const HttpServerOptions &options,
                               BudgetShare slot, std::shared_ptr<Budget> serverBodyBytes,
                               QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_options(options)
    , m_parser(options.limits)
    , m_slot(std::move(slot))
    , m_serverBodyBytes(std::move(serverBodyBytes))
{
    m_socket->setParent(this);
    // SSE events are small and must leave at once, not wait for an ACK.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // While a reply is under way we stop reading; a bounded buffer lets the
    // kernel push back on a client that keeps sending, and bounds what one
    // connection's head costs before it is refused.
    m_socket->setReadBufferSize(socketReadBufferBytes);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (m_parser.inRequest())
            refuse(408, "the request did not arrive in time", QStringLiteral("request"));
        else
            close();
    });
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::readRequests);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::close);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this] {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            close();
    });
    m_deadline.start(m_options.idleTimeout);
}

HttpConnection::~HttpConnection()
{
    m_socket->disconnect(this);
}

void HttpConnection::abort()
{
    if (m_closing)
        return;
    m_socket->abort();
    close();
}

void HttpConnection::readRequests()
{
    if (m_closing || m_exchange)
        return;
    m_buffer += m_socket->readAll();
    for (bool reading = true; reading;) {
        const bool wasInRequest = m_parser.inRequest();
        switch (m_parser.feed(m_buffer)) {
        case HttpRequestParser::State::Failed:
            refuse(m_parser.failureStatus(), m_parser.failureReason(), QStringLiteral("request"));
            return;
        case HttpRequestParser::State::NeedMore:
            if (m_parser.inRequest() && !wasInRequest)
                m_deadline.start(m_options.headTimeout);
            return;
        case HttpRequestParser::State::HeadComplete:
            if (!admitBody())
                return;
            m_deadline.start(m_options.bodyTimeout);
            break;
        case HttpRequestParser::State::Complete:
            reading = false;
            break;
        }
    }
    // The handler decides how long a reply may take (a model can think for
    // minutes); the connection's own deadlines pause meanwhile.
    m_deadline.stop();
    auto *exchange = new HttpExchange(m_parser.take(), m_socket->peerAddress(), this);
    m_exchange = exchange;
    emit requestReceived(exchange);
}

bool HttpConnection::admitBody()
{
    if (m_options.admit) {
        if (const std::optional<HttpRefusal> refusal = m_options.admit(m_parser.head())) {
            // The one who refused has recorded why.
            refuse(refusal->status, refusal->message.toUtf8());
            return false;
        }
    }
    std::optional<BudgetShare> share =
        BudgetShare::take({m_serverBodyBytes, m_options.allBodyBytes}, m_parser.bodyLength());
    if (!share) {
        refuse(503, "the model gateway holds as many request bodies as it may; try again shortly",
               QStringLiteral("busy"));
        return false;
    }
    m_bodyBytes = std::move(*share);
    return true;
}

void HttpConnection::write(const QByteArray &bytes)
{
    if (m_closing)
        return;
    m_socket->write(bytes);
    m_socket->flush();
}

void HttpConnection::exchangeFinished(bool keepAlive)
{
    if (m_exchange)
        m_exchange->deleteLater();
    m_exchange = nullptr;
    m_bodyBytes.release();
    if (!keepAlive) {
        m_closing = true;
        m_socket->disconnectFromHost(); // after what is written has left
        return;
    }
    m_deadline.start(m_options.idleTimeout);
    // A pipelined request may already wait in the buffer; read it after the
    // current handler has returned, never inside it.
    QMetaObject::invokeMethod(this, &HttpConnection::readRequests, Qt::QueuedConnection);
}

void HttpConnection::refuse(int status, const QByteArray &reason, const QString &recordAs)
{
    if (m_closing)
        return;
    if (!recordAs.isEmpty()) {
        QJsonObject why{{QStringLiteral("reason"), recordAs},
                        {QStringLiteral("status"), status},
                        {QStringLiteral("detail"), QString::fromUtf8(reason)},
                        {QStringLiteral("peer"), m_socket->peerAddress().toString()}};
        // What the request line said, when it got that far.
        if (const HttpRequest &head = m_parser.head(); !head.method.isEmpty()) {
            why.insert(QStringLiteral("method"), QString::fromLatin1(head.method.left(32)));
            why.insert(QStringLiteral("path"), QString::fromLatin1(head.path.left(200)));
        }
        emit requestRefused(why);
    }
    const QByteArray body = anthropicErrorBody(status, QString::fromUtf8(reason));
    write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status)
          + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
          + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    m_closing = true;
    m_deadline.stop();
    m_bodyBytes.release();
    m_socket->disconnectFromHost();
}

void HttpConnection::close()
{
    m_deadline.stop();
    if (m_exchange && !m_exchange->isFinished()) {
        m_exchange->m_finished = true;
        emit m_exchange->clientGone();
    }
    if (m_socket->state() != QAbstractSocket::UnconnectedState)
        m_socket->abort();
    m_closing = true;
    m_bodyBytes.release();
    m_slot.release();
    if (m_closed)
        return;
    m_closed = true;
    emit closed();
    deleteLater();
}

HttpServer::HttpServer(HttpServerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_connectionCount(m_options.maxConnections > 0
                            ? std::make_shared<Budget>(m_options.maxConnections)
                            : nullptr)
    , m_bodyBytes(m_options.maxBodyBytesHeld > 0
                      ? std::make_shared<Budget>(m_options.maxBodyBytesHeld)
                      : nullptr)
{
    connect(&m_server, &QTcpServer::newConnection, this,
            &HttpServer::acceptConnections);
}

HttpServer::~HttpServer()
{
    close();
}

Result<void> HttpServer::listen()
{
    if (m_server.listen(m_options.address, m_options.port))
        return {};
    return makeError(QStringLiteral("gateway.listen"),
                     QStringLiteral("could not listen on %1:%2: %3")
                         .arg(m_options.address.toString())
                         .arg(m_options.port)
                         .arg(m_server.errorString()));
}

void HttpServer::close()
{
    m_server.close();
    const QList<QPointer<HttpConnection>> connections = std::exchange(m_connections, {});
    for (const QPointer<HttpConnection> &connection : connections) {
        if (connection)
            connection->abort();
    }
}

void HttpServer::acceptConnections()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        const QHostAddress peer = socket->peerAddress();
        if (m_options.peer && !peer.isEqual(*m_options.peer, QHostAddress::TolerantConversion)) {
            socket->abort();
            socket->deleteLater();
            emit peerRefused(peer);
            continue;
        }
        std::optional<BudgetShare> slot =
            BudgetShare::take({m_connectionCount, m_options.allConnections}, 1);
        if (!slot) {
            // Closed before a byte is read: a flood costs a socket for an
            // instant and one line in the record, not one per connection.
            socket->abort();
            socket->deleteLater();
            if (!std::exchange(m_overCap, true))
                emit requestRefused(
                    {{QStringLiteral("reason"), QStringLiteral("connections")},
                     {QStringLiteral("peer"), peer.toString()},
                     {QStringLiteral("detail"),
                      QStringLiteral("too many connections open (at most %1 here, %2 in all); "
                                     "new ones are closed until some end")
                          .arg(m_connectionCount ? m_connectionCount->limit() : 0)
                          .arg(m_options.allConnections ? m_options.allConnections->limit() : 0)}});
            continue;
        }
        m_overCap = false;
        auto *connection =
            new HttpConnection(socket, m_options, std::move(*slot), m_bodyBytes, this);
        m_connections.append(connection);
        connect(connection, &HttpConnection::requestReceived, this,
                &HttpServer::requestReceived);
        connect(connection, &HttpConnection::requestRefused, this, &HttpServer::requestRefused);
        connect(connection, &HttpConnection::closed, this, [this, connection] {
            m_connections.removeAll(connection);
        });
    }
}

} // namespace arizuko::gateway
