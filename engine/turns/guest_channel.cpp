#include "turns/guest_channel.h"

#include <QJsonDocument>

namespace arizuko::turns {
namespace {

constexpr int maxConnectAttempts = 40; // 40 x 50 ms
// A line longer than this is not a protocol message; the guest splits long
// agent output into pieces well below it.
constexpr qsizetype maxLineBytes = 4 * 1024 * 1024;

} // namespace

GuestChannel::GuestChannel(QString socketPath, QObject *parent)
    : QObject(parent)
    , m_socketPath(std::move(socketPath))
{
    m_retry.setSingleShot(true);
    m_retry.setInterval(50);
    connect(&m_retry, &QTimer::timeout, this, &GuestChannel::open);
    connect(&m_socket, &QLocalSocket::connected, this, [this] {
        if (m_turnSpecLine.isEmpty())
            return;
        m_socket.write(m_turnSpecLine);
        m_socket.flush();
    });
    connect(&m_socket, &QLocalSocket::readyRead, this, &GuestChannel::readLines);
    connect(&m_socket, &QLocalSocket::disconnected, this, [this] {
        readLines();
        if (!m_closing)
            emit closed();
    });
    connect(&m_socket, &QLocalSocket::errorOccurred, this,
            [this](QLocalSocket::LocalSocketError error) {
                if (m_socket.state() != QLocalSocket::UnconnectedState || m_closing)
                    return;
                if (error == QLocalSocket::PeerClosedError)
                    return;
                if (++m_attempts < maxConnectAttempts)
                    m_retry.start();
                else
                    emit unreachable(QStringLiteral("cannot connect to the guest channel %1: %2")
                                         .arg(m_socketPath, m_socket.errorString()));
            });
}

void GuestChannel::open()
{
    m_socket.connectToServer(m_socketPath);
}

void GuestChannel::sendTurnSpec(const QByteArray &line)
{
    m_turnSpecLine = line;
    if (m_socket.state() != QLocalSocket::ConnectedState)
        return;
    m_socket.write(m_turnSpecLine);
    m_socket.flush();
}

void GuestChannel::close()
{
    m_closing = true;
    m_retry.stop();
    m_socket.abort();
}

void GuestChannel::send(const QJsonObject &message)
{
    if (m_socket.state() != QLocalSocket::ConnectedState)
        return;
    m_socket.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    m_socket.flush();
}

void GuestChannel::readLines()
{
    m_buffer += m_socket.readAll();
    qsizetype newline;
    while ((newline = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(newline);
        m_buffer.remove(0, newline + 1);
        if (line.trimmed().isEmpty())
            continue;
        const QJsonDocument document = QJsonDocument::fromJson(line);
        if (document.isObject())
            emit message(document.object());
        else
            emit garbage(line);
    }
    if (m_buffer.size() > maxLineBytes) {
        emit garbage(m_buffer.left(256));
        m_buffer.clear();
    }
}

} // namespace arizuko::turns
