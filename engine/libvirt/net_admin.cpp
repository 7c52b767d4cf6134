#include "libvirt/net_admin.h"

#include "host/helper_programs.h"
#include "process/run_program.h"

#include <QFile>
#include <QFileInfo>

namespace arizuko::libvirt {
namespace {

const QString helperName = QStringLiteral("arizuko-net-helper");

NetAdminOutput run(const QString &program, const QStringList &arguments, const QByteArray &input)
{
    using namespace std::chrono_literals;
    const process::ProgramRun run = process::runProgram(program, arguments, {5s, 15s}, input);
    NetAdminOutput output;
    if (run.outcome == process::ProgramRun::Outcome::NotStarted) {
        output.err = QStringLiteral("cannot run %1: %2").arg(program, run.error);
        return output;
    }
    output.ran = run.exited();
    output.exitCode = run.exitCode;
    output.out = QString::fromLocal8Bit(run.out);
    output.err = QString::fromLocal8Bit(run.err).trimmed();
    return output;
}

} // namespace

bool engineHasNetAdmin()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (!line.startsWith("CapEff:"))
            continue;
        bool ok = false;
        const qulonglong effective = line.mid(7).trimmed().toULongLong(&ok, 16);
        constexpr int capNetAdmin = 12;
        return ok && (effective >> capNetAdmin & 1U);
    }
    return false;
}

QString netHelperProgram()
{
    const QString chosen = qEnvironmentVariable("ARIZUKO_NET_HELPER");
    if (!chosen.isEmpty())
        return chosen;
    return host::helperProgram(helperName);
}

bool canTakeNetAdminSteps()
{
    static const bool able = [] {
        if (engineHasNetAdmin())
            return true;
        const QString helper = netHelperProgram();
        return QFileInfo(helper).isExecutable() && run(helper, {QStringLiteral("check")}, {}).ok();
    }();
    return able;
}

NetAdminOutput runNetAdminStep(const QString &program, const QStringList &arguments,
                               const QStringList &helperArguments, const QByteArray &input)
{
    if (engineHasNetAdmin())
        return run(program, arguments, input);
    return run(netHelperProgram(), helperArguments, input);
}

} // namespace arizuko::libvirt
