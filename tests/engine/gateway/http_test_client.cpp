#include "http_test_client.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>

namespace arizuko::gateway::testing {

namespace {

// Reads what has arrived so far into `reply`; true once the reply is whole.
bool parse(QByteArray &buffer, ClientReply &reply, bool &headDone, bool headOnly,
           const QElapsedTimer &clock)
{
    if (!headDone) {
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        reply.rawHead = buffer.left(end);
        const QList<QByteArray> lines = reply.rawHead.split('\n');
        reply.status = lines.first().split(' ').value(1).toInt();
        for (qsizetype index = 1; index < lines.size(); ++index) {
            const QByteArray line = lines[index].trimmed();
            const qsizetype colon = line.indexOf(':');
            reply.headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
        }
        buffer.remove(0, end + 4);
        headDone = true;
        if (headOnly)
            return true;
    }
    const bool chunked =
        headerValue(reply.headers, "transfer-encoding").value_or(QByteArray()) == "chunked";
    if (!chunked) {
        const qsizetype length =
            headerValue(reply.headers, "content-length").value_or("0").toLongLong();
        if (buffer.size() > 0 && reply.firstBodyMs < 0)
            reply.firstBodyMs = clock.elapsed();
        if (buffer.size() < length)
            return false;
        reply.body = buffer.left(length);
        buffer.remove(0, length);
        return true;
    }
    for (;;) {
        const qsizetype lineEnd = buffer.indexOf("\r\n");
        if (lineEnd < 0)
            return false;
        const qsizetype size = buffer.left(lineEnd).toLongLong(nullptr, 16);
        if (buffer.size() < lineEnd + 2 + size + 2)
            return false;
        if (size == 0) {
            buffer.remove(0, lineEnd + 4);
            return true;
        }
        if (reply.firstBodyMs < 0)
            reply.firstBodyMs = clock.elapsed();
        reply.body += buffer.mid(lineEnd + 2, size);
        buffer.remove(0, lineEnd + 2 + size + 2);
    }
}

} // namespace

ClientReply sendRequest(const QHostAddress &server, quint16 port, const ClientRequest &request,
                        const QHostAddress &from, int timeoutMs)
{
    QByteArray bytes = request.method + ' ' + request.target + " HTTP/1.1\r\nHost: gateway\r\n";
    for (const HttpHeader &header : request.headers)
        bytes += header.first + ": " + header.second + "\r\n";
    bytes +=
        "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n\r\n" + request.body;
    return sendRaw(server, port, bytes, request.method == "HEAD", from, timeoutMs);
}

ClientReply sendRaw(const QHostAddress &server, quint16 port, const QByteArray &bytes,
                    bool headOnly, const QHostAddress &from, int timeoutMs)
{
    ClientReply reply;
    QTcpSocket socket;
    if (!socket.bind(from))
        qFatal("cannot bind the test client to %s", qPrintable(from.toString()));
    QElapsedTimer clock;
    clock.start();
    QByteArray buffer;
    bool headDone = false;
    QObject::connect(&socket, &QTcpSocket::connected, &socket, [&] { socket.write(bytes); });
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [&] {
        buffer += socket.readAll();
        if (!reply.complete && parse(buffer, reply, headDone, headOnly, clock)) {
            reply.complete = true;
            reply.totalMs = clock.elapsed();
        }
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &socket, [&] { reply.closed = true; });
    QObject::connect(&socket, &QTcpSocket::errorOccurred, &socket, [&] {
        if (socket.state() != QAbstractSocket::ConnectedState)
            reply.closed = true;
    });
    socket.connectToHost(server, port);
    reply.timedOut = !QTest::qWaitFor([&] { return reply.complete || reply.closed; }, timeoutMs);
    socket.abort();
    return reply;
}

QByteArray messagesBody(const QString &prompt, const QString &model, bool stream)
{
    const QJsonObject tool{{QStringLiteral("name"), QStringLiteral("Bash")},
                           {QStringLiteral("input_schema"),
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}}};
    return QJsonDocument(
               QJsonObject{{QStringLiteral("model"), model},
                           {QStringLiteral("max_tokens"), 1000},
                           {QStringLiteral("stream"), stream},
                           {QStringLiteral("tools"), QJsonArray{tool}},
                           {QStringLiteral("messages"),
                            QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                   {QStringLiteral("content"), prompt}}}}})
        .toJson(QJsonDocument::Compact);
}

QByteArray responsesBody(const QString &prompt, const QString &model, bool stream)
{
    const QJsonObject tool{{QStringLiteral("type"), QStringLiteral("function")},
                           {QStringLiteral("name"), QStringLiteral("shell")},
                           {QStringLiteral("parameters"),
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}}};
    const QJsonObject text{{QStringLiteral("type"), QStringLiteral("input_text")},
                           {QStringLiteral("text"), prompt}};
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), model},
                                     {QStringLiteral("stream"), stream},
                                     {QStringLiteral("tools"), QJsonArray{tool}},
                                     {QStringLiteral("input"),
                                      QJsonArray{QJsonObject{
                                          {QStringLiteral("type"), QStringLiteral("message")},
                                          {QStringLiteral("role"), QStringLiteral("user")},
                                          {QStringLiteral("content"), QJsonArray{text}}}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace arizuko::gateway::testing
