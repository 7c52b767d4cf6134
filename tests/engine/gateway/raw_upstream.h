#pragma once

// An upstream that parses nothing: a TCP listener on 127.0.0.1 that keeps
// every byte reaching it and answers each connection with a small JSON
// 200 once a request head (and its Content-Length body) is in. The
// gateway's own HTTP code cannot hide from it what was really sent.

#include <QByteArray>
#include <QObject>
#include <QTcpServer>

namespace arizuko::gateway::testing {

class RawUpstream final : public QObject
{
    Q_OBJECT

public:
    RawUpstream();

    quint16 port() const { return m_server.serverPort(); }
    // Everything every connection sent, in arrival order.
    const QByteArray &received() const { return m_received; }
    int connections() const { return m_connections; }

private:
    void accept();

    QTcpServer m_server;
    QByteArray m_received;
    int m_connections = 0;
};

} // namespace arizuko::gateway::testing
