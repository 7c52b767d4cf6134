#include "raw_upstream.h"

#include <QTcpSocket>

#include <memory>

namespace arizuko::gateway::testing {

RawUpstream::RawUpstream()
{
    connect(&m_server, &QTcpServer::newConnection, this, &RawUpstream::accept);
    if (!m_server.listen(QHostAddress::LocalHost))
        qFatal("the raw upstream cannot listen: %s", qPrintable(m_server.errorString()));
}

void RawUpstream::accept()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        socket->setParent(this);
        auto pending = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, pending] {
            const QByteArray bytes = socket->readAll();
            m_received += bytes;
            *pending += bytes;
            const qsizetype end = pending->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = pending->left(end).toLower();
            const qsizetype at = head.indexOf("\r\ncontent-length:");
            const qsizetype length = at < 0
                                         ? 0
                                         : head.mid(at + 17, head.indexOf("\r\n", at + 2) - at - 17)
                                               .trimmed()
                                               .toLongLong();
            if (pending->size() < end + 4 + length)
                return;
            const QByteArray body =
                R"({"id":"msg_raw","type":"message","role":"assistant",)"
                R"("model":"claude-sonnet-4-5","content":[],"stop_reason":"end_turn",)"
                R"("usage":{"input_tokens":1,"output_tokens":1}})";
            socket->write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                "Content-Length: " +
                QByteArray::number(body.size()) + "\r\n\r\n" + body);
            socket->disconnectFromHost();
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }
}

} // namespace arizuko::gateway::testing
