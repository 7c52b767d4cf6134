#include "stall_meter.h"

namespace arizuko::desktop {

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
}

void StallMeter::tick()
{
    const qint64 now = m_clock.elapsed();
    m_longest = std::max(m_longest, now - m_last - tickMs);
    m_last = now;
}

} // namespace arizuko::desktop
