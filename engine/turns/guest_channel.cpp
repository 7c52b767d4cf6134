#include "turns/guest_channel.h"

#include <QJsonDocument>
#include <utility>

namespace arizuko::turns {
namespace {

constexpr int maxConnectAttempts = 40; // 40 x 50 ms

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
        // Our own close() aborts the socket, which is then no longer
        // readable; the guest hanging up leaves its last lines to read.
        if (m_closing)
            return;
        readLines();
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
    const QByteArrayList lines = m_lines.feed(m_socket.readAll());
    for (const QByteArray &line : lines) {
        if (std::exchange(m_skippingLine, false) || line.trimmed().isEmpty())
            continue;
        if (line.size() > maxGuestLineBytes) {
            emit violation(QStringLiteral("a line longer than %1 bytes").arg(maxGuestLineBytes));
            continue;
        }
        Result<QJsonObject> checked = m_check.check(line);
        if (checked)
            emit message(*checked);
        else
            emit violation(checked.error().message);
    }
    if (m_lines.pendingSize() > maxGuestLineBytes) {
        if (!m_skippingLine)
            emit violation(QStringLiteral("a line longer than %1 bytes").arg(maxGuestLineBytes));
        m_skippingLine = true;
        m_lines.clear();
    }
}

} // namespace arizuko::turns
