#include "turns/engine_process.h"

#include <QFile>
#include <algorithm>
#include <unistd.h>

namespace arizuko::turns {

QString processStartTime(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    // The command name (field 2) may hold spaces and parentheses: count
    // fields after its closing parenthesis. Start time is field 22.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    return fields.size() > 19 ? QString::fromLatin1(fields[19]) : QString();
}

EngineProcess EngineProcess::current()
{
    const qint64 pid = ::getpid();
    return {pid, processStartTime(pid)};
}

EngineProcess EngineProcess::fromMark(const QString &mark)
{
    const QStringList parts = mark.split(QLatin1Char(':'));
    bool numeric = false;
    const qint64 pid = parts.value(0).toLongLong(&numeric);
    if (parts.size() != 2 || !numeric)
        return {};
    return {pid, parts[1]};
}

bool EngineProcess::isAlive() const
{
    return pid > 0 && !started.isEmpty() && processStartTime(pid) == started;
}

bool anotherEngineAlive(const QList<std::pair<qint64, QString>> &engines, qint64 own)
{
    return std::any_of(engines.begin(), engines.end(), [own](const auto &engine) {
        const EngineProcess owner{engine.first, engine.second};
        return owner.pid != own && owner.isAlive();
    });
}

} // namespace arizuko::turns
