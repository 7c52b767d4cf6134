#pragma once

// Which engine process owns a live turn: its pid and the pid's start time,
// so that a pid reused by another program is not taken for the owner.

#include <QList>
#include <QString>
#include <utility>

namespace arizuko::turns {

struct EngineProcess
{
    qint64 pid = 0;
    QString started; // /proc/<pid>/stat start time, in clock ticks since boot

    static EngineProcess current();
    // From a mark made by mark(); pid 0 when it does not parse.
    static EngineProcess fromMark(const QString &mark);
    bool isAlive() const;
    // "pid:starttime", put on the turn's libvirt objects and proxy.
    QString mark() const { return QStringLiteral("%1:%2").arg(pid).arg(started); }
};

// Whether one of `engines` ("pid", "starttime", as the store keeps them)
// is alive and not the engine `own`.
bool anotherEngineAlive(const QList<std::pair<qint64, QString>> &engines, qint64 own);

// The start time field of /proc/<pid>/stat, empty when the process is gone.
QString processStartTime(qint64 pid);

} // namespace arizuko::turns
