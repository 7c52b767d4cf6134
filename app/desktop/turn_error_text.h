#pragma once

// What the window says of a turn's error. The engine's messages are written
// for arizukoctl's terminal; where one tells a person to run a command and
// the window offers that fix itself, the window says so in its own words.

#include <QString>

namespace arizuko::desktop {

QString turnErrorText(const QString &code, const QString &message);

} // namespace arizuko::desktop
