#pragma once

// Text made safe for a POSIX sh script: arguments single-quoted, so nothing
// in them is expanded ($(), backticks, quotes, newlines); comment text with
// every control character escaped, so it cannot end the comment line.

#include <QString>

namespace arizuko::manifest {

QString shellQuote(const QString &word);
QString commentSafe(const QString &text);

} // namespace arizuko::manifest
