#include "host/helper_programs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace arizuko::host {
namespace {

QStringList candidates(const QString &name)
{
    if (!QCoreApplication::instance())
        return {};
    const QDir programDir(QCoreApplication::applicationDirPath());
    // ARIZUKO_HELPER_DIR_FROM_BIN is libexec/arizuko-desktop as seen from
    // the installed bin directory (CMake's GNUInstallDirs), e.g. ../libexec/arizuko-desktop.
    return {programDir.filePath(name),
            QDir::cleanPath(
                programDir.filePath(QStringLiteral(ARIZUKO_HELPER_DIR_FROM_BIN "/") + name))};
}

} // namespace

QString helperProgram(const QString &name)
{
    for (const QString &candidate : candidates(name)) {
        if (QFileInfo(candidate).isFile())
            return candidate;
    }
    return {};
}

QString helperSearchPath(const QString &name)
{
    return candidates(name).join(QStringLiteral(", "));
}

} // namespace arizuko::host
