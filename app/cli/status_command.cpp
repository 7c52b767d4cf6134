#include "commands.h"

#include "subcommands.h"
#include "host/qemu_reaper.h"
#include "libvirt/machine_status.h"
#include "libvirt/net_admin.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

namespace arizuko::cli {
namespace {

// Only a libvirtd on this host can be looked at.
std::optional<host::QemuReaper> localQemuReaper(const host::HostStatus &status)
{
    if (!status.libvirt.reachable || !QUrl(status.libvirt.uri).host().isEmpty())
        return std::nullopt;
    const host::QemuReaper reaper = host::inspectQemuReaper();
    if (!reaper.libvirtdFound)
        return std::nullopt;
    return reaper;
}

QString filterModeState(libvirt::FilterMode mode)
{
    if (mode == libvirt::FilterMode::Classic)
        return QStringLiteral(
                   "libvirt binds each turn's filter before QEMU starts (pretap, the faster "
                   "start, needs CAP_NET_ADMIN: root, or %1 with it: sudo setcap "
                   "cap_net_admin+ep %1)")
            .arg(libvirt::netHelperProgram());
    return libvirt::engineHasNetAdmin()
               ? QStringLiteral(
                     "the engine makes each turn's tap and binds its filter beside the boot")
               : QStringLiteral("the engine makes each turn's tap (through %1) and binds its "
                                "filter beside the boot")
                     .arg(libvirt::netHelperProgram());
}

QJsonObject toJson(const host::HostStatus &status, const std::optional<host::QemuReaper> &reaper,
                   libvirt::FilterMode filterMode)
{
    return QJsonObject{
        {QStringLiteral("filter_mode"), turns::filterModeName(filterMode)},
        {QStringLiteral("qemu_reaper"),
         reaper ? QJsonValue(QJsonObject{{QStringLiteral("reaper"), reaper->reaper},
                                         {QStringLiteral("prompt"), reaper->prompt},
                                         {QStringLiteral("advice"), reaper->advice}})
                : QJsonValue()},
        {QStringLiteral("libvirt"),
         QJsonObject{{QStringLiteral("uri"), status.libvirt.uri},
                     {QStringLiteral("reachable"), status.libvirt.reachable},
                     {QStringLiteral("version"), status.libvirt.version},
                     {QStringLiteral("error"), status.libvirt.error},
                     {QStringLiteral("hint"), status.libvirt.hint}}},
        {QStringLiteral("accelerator"),
         QJsonObject{
             {QStringLiteral("name"), host::acceleratorName(status.accelerator.accelerator)},
             {QStringLiteral("reason"), status.accelerator.reason}}},
        {QStringLiteral("guest_image"),
         QJsonObject{
             {QStringLiteral("directory"), status.guestImage.directory},
             {QStringLiteral("present"), status.guestImage.present},
             {QStringLiteral("missing"), QJsonArray::fromStringList(status.guestImage.missing)},
             {QStringLiteral("problem"), status.guestImage.problem}}},
        {QStringLiteral("ready_for_turns"), status.readyForTurns()},
    };
}

QList<QStringList> toRows(const host::HostStatus &status,
                          const std::optional<host::QemuReaper> &reaper,
                          libvirt::FilterMode filterMode)
{
    const host::LibvirtStatus &libvirt = status.libvirt;
    const QString libvirtState =
        libvirt.reachable
            ? QStringLiteral("reachable (libvirt %1)").arg(libvirt.version)
            : QStringLiteral("NOT reachable: %1 — %2").arg(libvirt.error, libvirt.hint);
    const host::GuestImageStatus &image = status.guestImage;
    const QString imageState = image.present
                                   ? QStringLiteral("present")
                                   : QStringLiteral("%1 — %2").arg(host::guestImageFault(image),
                                                                    host::guestImageBuildHint());
    QList<QStringList> rows{
        {QStringLiteral("libvirt"), libvirt.uri, libvirtState},
        {QStringLiteral("accelerator"), host::acceleratorName(status.accelerator.accelerator),
         status.accelerator.reason.simplified()},
        {QStringLiteral("guest image"), image.directory, imageState},
        {QStringLiteral("filter mode"), turns::filterModeName(filterMode),
         filterModeState(filterMode)},
    };
    if (reaper)
        rows.append({QStringLiteral("QEMU reaper"), reaper->reaper,
                     reaper->prompt ? QStringLiteral("reaps promptly")
                                    : QStringLiteral("SLOW — ") + reaper->advice});
    return rows;
}

} // namespace

Exit runStatus(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("status"),
             QStringLiteral(
                 "Show whether this machine can run turns: libvirt, KVM or TCG (as turns "
                 "will\nreally use it), the guest image.\n"
                 "Exits 1 when libvirt is not reachable.")},
            arguments))
        return *stop;

    return withStore(context, [&](store::Store &store) {
        const auto settings = runnerSettings(context, store);
        if (!settings)
            return context.failure(settings.error());
        const host::HostStatus status = libvirt::collectMachineStatus(*settings);
        const std::optional<host::QemuReaper> reaper = localQemuReaper(status);
        if (context.json())
            context.printJson(toJson(status, reaper, settings->filterMode));
        else
            context.printTable(
                {QStringLiteral("CHECK"), QStringLiteral("WHAT"), QStringLiteral("STATE")},
                toRows(status, reaper, settings->filterMode));
        if (reaper && !reaper->prompt) {
            context.err() << "arizukoctl: warning: " << reaper->advice << "\n";
            context.err().flush();
        }
        return status.libvirt.reachable ? Exit::Ok : Exit::Failed;
    });
}

} // namespace arizuko::cli
