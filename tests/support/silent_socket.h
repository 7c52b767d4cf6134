#pragma once

// A listening Unix socket that never accepts: connecting succeeds (the
// kernel queues it) and then nothing ever answers, the worst peer there is
// (a hung D-Bus, a hung libvirtd). close() resets the queued clients, which
// then see their connection fail.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtGlobal>
#include <algorithm>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>

class SilentSocket
{
public:
    explicit SilentSocket(const QString &path)
        : m_descriptor(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0))
    {
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray encoded = QFile::encodeName(path);
        std::memcpy(
            address.sun_path, encoded.constData(),
            std::min<size_t>(static_cast<size_t>(encoded.size()), sizeof address.sun_path - 1));
        if (m_descriptor < 0 ||
            ::bind(m_descriptor, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_descriptor, 16) != 0)
            qFatal("cannot listen on %s", qPrintable(path));
    }
    ~SilentSocket() { close(); }
    SilentSocket(const SilentSocket &) = delete;
    SilentSocket &operator=(const SilentSocket &) = delete;

    // True once a client waits in the queue.
    bool waitForClient(int timeoutMs) const
    {
        pollfd waiting{m_descriptor, POLLIN, 0};
        return ::poll(&waiting, 1, timeoutMs) == 1;
    }
    void close()
    {
        if (m_descriptor >= 0)
            ::close(std::exchange(m_descriptor, -1));
    }

private:
    int m_descriptor;
};
