#include "host/guest_image.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace arizuko::host {

QString guestImageDirectory()
{
    const QString overridden = qEnvironmentVariable("ARIZUKO_GUEST_IMAGE_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
           + QStringLiteral("/arizuko-desktop/guest");
}

GuestImageStatus inspectGuestImage(const QString &directory)
{
    static const QStringList required = {QStringLiteral("manifest.json"), QStringLiteral("vmlinuz"),
                                         QStringLiteral("initramfs.img"), QStringLiteral("root.img")};
    GuestImageStatus status;
    status.directory = directory;
    const QDir dir(directory);
    for (const QString &name : required) {
        if (!QFileInfo(dir.filePath(name)).isFile())
            status.missing << name;
    }
    status.present = status.missing.isEmpty();
    return status;
}

QString guestImageBuildHint()
{
    return QStringLiteral("build it with `./dev guest-image` in a source tree "
                          "(installer/build-guest-image --guest-binary <build>/bin/arizuko-guest)");
}

} // namespace arizuko::host
