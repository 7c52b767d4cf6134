#include "commands.h"

#include "subcommands.h"
#include "libvirt/machine_status.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

QJsonObject toJson(const host::HostStatus &status)
{
    return QJsonObject{
        {QStringLiteral("libvirt"),
         QJsonObject{{QStringLiteral("uri"), status.libvirt.uri},
                     {QStringLiteral("reachable"), status.libvirt.reachable},
                     {QStringLiteral("version"), status.libvirt.version},
                     {QStringLiteral("error"), status.libvirt.error},
                     {QStringLiteral("hint"), status.libvirt.hint}}},
        {QStringLiteral("accelerator"),
         QJsonObject{{QStringLiteral("name"), host::acceleratorName(status.accelerator.accelerator)},
                     {QStringLiteral("reason"), status.accelerator.reason}}},
        {QStringLiteral("guest_image"),
         QJsonObject{{QStringLiteral("directory"), status.guestImage.directory},
                     {QStringLiteral("present"), status.guestImage.present},
                     {QStringLiteral("missing"), QJsonArray::fromStringList(status.guestImage.missing)},
                     {QStringLiteral("problem"), status.guestImage.problem}}},
        {QStringLiteral("ready_for_turns"), status.readyForTurns()},
    };
}

QList<QStringList> toRows(const host::HostStatus &status)
{
    const host::LibvirtStatus &libvirt = status.libvirt;
    const QString libvirtState = libvirt.reachable
                                     ? QStringLiteral("reachable (libvirt %1)").arg(libvirt.version)
                                     : QStringLiteral("NOT reachable: %1 — %2").arg(libvirt.error, libvirt.hint);
    const host::GuestImageStatus &image = status.guestImage;
    const QString imageState = image.present
                                   ? QStringLiteral("present")
                                   : QStringLiteral("%1 — %2").arg(host::guestImageFault(image),
                                                                    host::guestImageBuildHint());
    return {
        {QStringLiteral("libvirt"), libvirt.uri, libvirtState},
        {QStringLiteral("accelerator"), host::acceleratorName(status.accelerator.accelerator),
         status.accelerator.reason.simplified()},
        {QStringLiteral("guest image"), image.directory, imageState},
    };
}

} // namespace

Exit runStatus(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Show whether this machine can run turns: libvirt, KVM or TCG (as turns will\nreally use it), the guest image.\n"
                       "Exits 1 when libvirt is not reachable."));
    if (const auto stop = context.parse(parser, QStringLiteral("status"), arguments))
        return *stop;
    if (!parser.positionalArguments().isEmpty())
        return context.usageError(
            QStringLiteral("status: unexpected argument '%1'").arg(parser.positionalArguments().first()));

    auto store = openStore(context);
    if (!store)
        return context.failure(store.error());
    const auto settings = runnerSettings(context, **store);
    if (!settings)
        return context.failure(settings.error());
    const host::HostStatus status = libvirt::collectMachineStatus(*settings);
    if (context.json())
        context.printJson(toJson(status));
    else
        context.printTable({QStringLiteral("CHECK"), QStringLiteral("WHAT"), QStringLiteral("STATE")},
                           toRows(status));
    return status.libvirt.reachable ? Exit::Ok : Exit::Failed;
}

} // namespace arizuko::cli
