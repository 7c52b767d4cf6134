#pragma once

// The engine's end of the org.arizuko.turn virtio-serial channel: a UNIX
// socket QEMU listens on. Sends the turn spec and splits what the guest
// writes into JSON messages (one per line, see docs/guest.md), each checked
// (guest_channel_messages.h) before the turn sees it.

#include "core/line_buffer.h"
#include "turns/guest_channel_messages.h"

#include <QByteArray>
#include <QJsonObject>
#include <QLocalSocket>
#include <QObject>
#include <QTimer>

namespace arizuko::turns {

class GuestChannel final : public QObject
{
    Q_OBJECT

public:
    explicit GuestChannel(QString socketPath, QObject *parent = nullptr);

    // Connects, retrying briefly while QEMU creates the socket.
    void open();
    // Sends the turn spec (which starts the agent) now, or once connected.
    // The turn calls it only when the guest's filter is in force.
    void sendTurnSpec(const QByteArray &line);
    void close();
    // One protocol line to the guest (ack, cancel); dropped when not connected.
    void send(const QJsonObject &message);

signals:
    // A message a guest may send, rebuilt from its checked members.
    void message(const QJsonObject &message);
    // A line refused (too long, or not a message a guest sends): dropped.
    void violation(const QString &why);
    void closed();
    void unreachable(const QString &why);

private:
    void readLines();

    QString m_socketPath;
    QByteArray m_turnSpecLine;
    QLocalSocket m_socket;
    QTimer m_retry;
    LineBuffer m_lines;
    GuestMessageCheck m_check;
    // The rest of a line over maxGuestLineBytes is dropped up to its newline.
    bool m_skippingLine = false;
    int m_attempts = 0;
    bool m_closing = false;
};

} // namespace arizuko::turns
