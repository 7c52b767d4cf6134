#include "host/qemu_reaper.h"

#include <QDir>
#include <QFile>

namespace arizuko::host {
namespace {

const QStringList promptInits = {QStringLiteral("systemd"), QStringLiteral("init"),
                                 QStringLiteral("tini"), QStringLiteral("dumb-init"),
                                 QStringLiteral("catatonit")};

// tini's own options come before the program it runs (after "--").
bool isSubreaperTini(const ProcessInfo &process)
{
    if (process.name != QLatin1String("tini"))
        return false;
    const qsizetype end = process.arguments.indexOf(QStringLiteral("--"));
    const QStringList options = end < 0 ? process.arguments : process.arguments.first(end);
    return options.contains(QStringLiteral("-s"));
}

QByteArray readProcFile(qint64 pid, const char *file)
{
    QFile text(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(file)));
    return text.open(QIODevice::ReadOnly) ? text.readAll() : QByteArray();
}

std::optional<ProcessInfo> procProcess(qint64 pid)
{
    const QByteArray stat = readProcFile(pid, "stat");
    if (stat.isEmpty())
        return std::nullopt;
    ProcessInfo process;
    process.pid = pid;
    process.name = QString::fromUtf8(readProcFile(pid, "comm")).trimmed();
    // The fields after the command name, which may itself hold spaces.
    process.parent = stat.mid(stat.lastIndexOf(')') + 2).split(' ').value(1).toLongLong();
    for (const QByteArray &argument : readProcFile(pid, "cmdline").split('\0')) {
        if (!argument.isEmpty())
            process.arguments << QString::fromLocal8Bit(argument);
    }
    return process;
}

std::optional<qint64> libvirtdPid()
{
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (numeric && readProcFile(pid, "comm").trimmed() == "libvirtd")
            return pid;
    }
    return std::nullopt;
}

} // namespace

QemuReaper assessQemuReaper(const std::function<std::optional<ProcessInfo>(qint64)> &process,
                            std::optional<qint64> libvirtd)
{
    QemuReaper result;
    const std::optional<ProcessInfo> daemon = libvirtd ? process(*libvirtd) : std::nullopt;
    if (!daemon)
        return result;
    result.libvirtdFound = true;
    // Walk up from libvirtd's parent to PID 1; the first subreaper wins.
    for (qint64 pid = daemon->parent; pid > 1;) {
        const std::optional<ProcessInfo> ancestor = process(pid);
        if (!ancestor)
            break;
        if (isSubreaperTini(*ancestor) || ancestor->name == QLatin1String("systemd")) {
            result.reaper = QStringLiteral("%1 (pid %2)")
                                .arg(ancestor->arguments.join(QLatin1Char(' ')))
                                .arg(ancestor->pid);
            return result;
        }
        pid = ancestor->parent;
    }
    const std::optional<ProcessInfo> init = process(1);
    const QString initName = init ? init->name : QStringLiteral("unknown");
    result.reaper = QStringLiteral("PID 1 (%1)").arg(initName);
    result.prompt = promptInits.contains(initName);
    if (!result.prompt)
        result.advice = QStringLiteral(
            "QEMU processes are reaped by PID 1 (%1), which may reap orphans late: every VM "
            "teardown then waits seconds. Run libvirtd under `tini -s` (as `./dev setup` does) "
            "or under systemd.")
                            .arg(initName);
    return result;
}

QemuReaper inspectQemuReaper()
{
    return assessQemuReaper(procProcess, libvirtdPid());
}

} // namespace arizuko::host
