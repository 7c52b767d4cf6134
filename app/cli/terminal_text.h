#pragma once

// What an agent produced, made inert for a terminal: a guest's agent is
// untrusted, and its text must not move the cursor, erase lines, set the
// window title or print a line that looks like the engine's own.

#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace arizuko::cli {

// `text` with every control character but newline and tab shown visibly:
// C0 and DEL as \xHH (ESC as \x1b), C1 (U+0080 to U+009F) as \u0080…\u009f.
// A backslash stays as it is: the result is for a person to read.
QString inertForTerminal(const QString &text);
// inertForTerminal for what must stay on one line (a name, a table cell):
// newline and tab shown too, so no name can print a line of its own.
QString inertLine(const QString &text);

// `json` as text: JSON escapes C0 itself, DEL and C1 become \u007f…\u009f,
// which a JSON reader takes back as the same text (QJsonDocument writes
// them raw). Every --json output goes through it (Context::printJson).
QString inertJson(const QJsonDocument &json, QJsonDocument::JsonFormat format);
// inertJson as one compact line.
QString inertJsonLine(const QJsonObject &json);

} // namespace arizuko::cli
