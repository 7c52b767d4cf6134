#pragma once

// Measures how long the GUI thread's event loop went without turning: a
// timer asks to run every few milliseconds, and the longest gap beyond
// that is the longest stall (what a person feels as a frozen window).

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

namespace arizuko::desktop {

class StallMeter final : public QObject
{
    Q_OBJECT

public:
    static constexpr int tickMs = 4;

    explicit StallMeter(QObject *parent = nullptr);

    void reset();
    qint64 longestStallMs() const { return m_longest; }
    // Every stall longer than a frame (16 ms): when it ended (wall clock)
    // and how long it was, to find what caused it.
    struct Stall
    {
        QDateTime endedAt;
        qint64 ms = 0;
    };
    QList<Stall> stalls() const { return m_stalls; }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
    QList<Stall> m_stalls;
};

} // namespace arizuko::desktop
