#include "export/shell_words.h"

namespace arizuko::manifest {

QString shellQuote(const QString &word)
{
    QString body = word;
    body.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + body + u'\'';
}

QString commentSafe(const QString &text)
{
    QString safe;
    for (const QChar c : text) {
        // Unicode line and paragraph separators too: some editors and
        // viewers break lines there.
        if (c.unicode() < 0x20 || c.unicode() == 0x7F || c.unicode() == 0x2028 ||
            c.unicode() == 0x2029 || c.unicode() == 0x85)
            safe += QStringLiteral("\\x%1").arg(int(c.unicode()), 2, 16, QChar(u'0'));
        else
            safe += c;
    }
    return safe;
}

} // namespace arizuko::manifest
