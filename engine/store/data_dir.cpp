#include "store/data_dir.h"

#include <QDir>
#include <QStandardPaths>

namespace arizuko::store {

QString resolveDataDir(const QString &commandLineDir)
{
    QString chosen = commandLineDir;
    if (chosen.isEmpty())
        chosen = qEnvironmentVariable("ARIZUKO_DATA_DIR");
    if (chosen.isEmpty()) {
        // GenericDataLocation honours $XDG_DATA_HOME and falls back to
        // ~/.local/share as the XDG base directory spec says.
        chosen = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                 QStringLiteral("/arizuko-desktop");
    }
    return QDir::cleanPath(QDir(chosen).absolutePath());
}

} // namespace arizuko::store
