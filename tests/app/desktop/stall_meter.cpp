#include "stall_meter.h"

#include <QEventLoop>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace arizuko::desktop {
namespace {

constexpr qint64 frameMs = 16;
constexpr qint64 nsPerMs = 1000000;

} // namespace

StallMeter::StallMeter(QObject *parent)
    : QObject(parent)
    // Opened on the measured thread: thread-self names it for good.
    , m_schedstat(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC))
{
    if (m_schedstat < 0)
        qWarning("StallMeter: no /proc/thread-self/schedstat; stalls are measured without where "
                 "the thread was");
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(tickMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
    reset();
    m_timer.start();
}

StallMeter::~StallMeter()
{
    if (m_schedstat >= 0)
        ::close(m_schedstat);
}

// "<ns on a CPU> <ns waiting on a run queue> <time slices>".
StallMeter::Schedule StallMeter::readSchedule() const
{
    char text[96] = {};
    long long onCpu = 0;
    long long waiting = 0;
    if (m_schedstat < 0 || ::pread(m_schedstat, text, sizeof text - 1, 0) <= 0 ||
        std::sscanf(text, "%lld %lld", &onCpu, &waiting) != 2)
        return {};
    return {onCpu, waiting};
}

void StallMeter::reset()
{
    m_clock.start();
    m_last = 0;
    m_lastSchedule = readSchedule();
    m_longest = 0;
    m_stalls.clear();
}

void StallMeter::tick()
{
    const qint64 now = m_clock.elapsed();
    const Schedule schedule = readSchedule();
    const qint64 stall = now - m_last - tickMs;
    m_longest = std::max(m_longest, stall);
    if (stall > frameMs)
        m_stalls.append({QDateTime::currentDateTimeUtc(), stall,
                         (schedule.onCpuNs - m_lastSchedule.onCpuNs) / nsPerMs,
                         (schedule.waitingNs - m_lastSchedule.waitingNs) / nsPerMs});
    m_last = now;
    m_lastSchedule = schedule;
}

bool turnEventLoop(int ms, const std::function<bool()> &done)
{
    if (done && done())
        return true;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QTimer check;
    if (done) {
        check.setInterval(StallMeter::tickMs);
        QObject::connect(&check, &QTimer::timeout, &loop, [&] {
            if (done())
                loop.quit();
        });
        check.start();
    }
    deadline.start(ms);
    loop.exec();
    return done && done();
}

} // namespace arizuko::desktop
