#include "stall_meter.h"

namespace arizuko::desktop {
namespace {

constexpr qint64 frameMs = 16;

} // namespace

StallMeter::StallMeter(QObject *parent)
    : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(tickMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
    reset();
    m_timer.start();
}

void StallMeter::reset()
{
    m_clock.start();
    m_last = 0;
    m_longest = 0;
    m_stalls.clear();
}

void StallMeter::tick()
{
    const qint64 now = m_clock.elapsed();
    const qint64 stall = now - m_last - tickMs;
    m_longest = std::max(m_longest, stall);
    if (stall > frameMs)
        m_stalls.append({QDateTime::currentDateTimeUtc(), stall});
    m_last = now;
}

} // namespace arizuko::desktop
