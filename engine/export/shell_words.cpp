#include "export/shell_words.h"

using namespace Qt::StringLiterals;

namespace arizuko::manifest {

QString shellQuote(const QString &word)
{
    QString body = word;
    body.replace(u'\'', u"'\\''"_s);
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
            safe += u"\\x%1"_s.arg(int(c.unicode()), 2, 16, QChar(u'0'));
        else
            safe += c;
    }
    return safe;
}

} // namespace arizuko::manifest
