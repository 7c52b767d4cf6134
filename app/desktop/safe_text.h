#pragma once

// Text from the store or from a refusal can carry what a person typed:
// control characters, a right-to-left override, a NUL, ten thousand letters.
// Shown as is, it would reorder or hide the rest of the sentence.

#include <QString>

namespace arizuko::desktop {

// Control and format characters (U+202E, NUL, ...) as visible \u{202E}
// escapes, and the text cut at maxLength characters with an ellipsis.
QString printable(const QString &text, qsizetype maxLength = 160);

} // namespace arizuko::desktop
