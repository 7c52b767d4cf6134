#include "libvirt/net_admin.h"

#include "host/helper_programs.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace arizuko::libvirt {
namespace {

const QString helperName = QStringLiteral("arizuko-net-helper");

NetAdminOutput run(const QString &program, const QStringList &arguments, const QByteArray &input)
{
    QProcess process;
    process.start(program, arguments);
    NetAdminOutput output;
    if (!process.waitForStarted(5000)) {
        output.err = QStringLiteral("cannot run %1: %2").arg(program, process.errorString());
        return output;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    output.ran = process.waitForFinished(15000) && process.exitStatus() == QProcess::NormalExit;
    output.exitCode = process.exitCode();
    output.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    output.err = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
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
