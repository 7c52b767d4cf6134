#pragma once

// The last lines of a turn VM's serial console log, fit to quote in an
// error: what a guest that never reported printed last (the kernel's
// messages, arizuko-guest's own complaints) is usually why.

#include <QString>
#include <QStringList>

namespace arizuko::turns {

// At most `lines` of the log's last 64 KiB, without carriage returns and
// with every other control character (the guest writes what it likes)
// shown as \xNN. Empty when the log cannot be read or holds nothing.
QStringList consoleTail(const QString &path, int lines);

} // namespace arizuko::turns
