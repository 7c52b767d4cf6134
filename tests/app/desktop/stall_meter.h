#pragma once

// Measures how long the GUI thread's event loop went without turning: a
// timer asks to run every few milliseconds, and the longest gap beyond
// that is the longest stall (what a person feels as a frozen window).
// Each stall also says where the thread was meanwhile, from the kernel's
// schedstat: on a CPU (computing), waiting for a CPU (runnable, but the
// cores were busy: a TCG guest, a build), or neither (blocked: on the X
// server, a GL rasteriser, a lock, I/O).
// An instrument for tests and benchmarks: the window does not run one.

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>
#include <functional>

namespace arizuko::desktop {

class StallMeter final : public QObject
{
    Q_OBJECT

public:
    static constexpr int tickMs = 4;

    // Measures the thread it is created on.
    explicit StallMeter(QObject *parent = nullptr);
    ~StallMeter() override;

    void reset();
    qint64 longestStallMs() const { return m_longest; }
    // Every stall longer than a frame (16 ms): when it ended (wall clock),
    // how long it was, and where the thread spent it.
    struct Stall
    {
        QDateTime endedAt;
        qint64 ms = 0;
        qint64 onCpuMs = 0;
        qint64 waitingForCpuMs = 0;
    };
    QList<Stall> stalls() const { return m_stalls; }

private:
    struct Schedule
    {
        qint64 onCpuNs = 0;
        qint64 waitingNs = 0;
    };
    Schedule readSchedule() const;
    void tick();

    int m_schedstat = -1;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    Schedule m_lastSchedule;
    qint64 m_longest = 0;
    QList<Stall> m_stalls;
};

// Turns the calling thread's event loop for `ms` (or until `done` holds,
// checked every tick) without ever sleeping it. QTest::qWait and qWaitFor
// sleep up to 10 ms between passes, and a meter on the same thread counts
// that sleep as the window's stall. Returns whether `done` held.
bool turnEventLoop(int ms, const std::function<bool()> &done = {});

} // namespace arizuko::desktop
