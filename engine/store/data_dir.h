#pragma once

// Where the store lives: --data-dir, else $ARIZUKO_DATA_DIR, else
// $XDG_DATA_HOME/arizuko-desktop (~/.local/share/arizuko-desktop).

#include <QString>

namespace arizuko::store {

// `commandLineDir` is the --data-dir value, empty when not given. The result
// is an absolute path; the directory is not created here.
QString resolveDataDir(const QString &commandLineDir = {});

} // namespace arizuko::store
