#pragma once

// SIGINT and SIGTERM as a Qt signal. The handler only writes a byte to a
// self-pipe (async-signal-safe); a QSocketNotifier on the pipe's read end
// emits interrupted() from the event loop, so no flag needs polling. One at
// a time; the default handlers come back when it is destroyed.

#include "posix/unique_fd.h"

#include <QObject>

class QSocketNotifier;

namespace arizuko::cli {

class InterruptNotifier final : public QObject
{
    Q_OBJECT

public:
    explicit InterruptNotifier(QObject *parent = nullptr);
    ~InterruptNotifier() override;

signals:
    void interrupted();

private:
    void drain();

    posix::UniqueFd m_readEnd;
    posix::UniqueFd m_writeEnd;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace arizuko::cli
