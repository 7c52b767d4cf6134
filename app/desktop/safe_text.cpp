#include "safe_text.h"

namespace arizuko::desktop {

QString printable(const QString &text, qsizetype maxLength)
{
    QString shown;
    for (const QChar c : text) {
        if (shown.size() >= maxLength) {
            shown += QChar(0x2026);
            break;
        }
        const QChar::Category category = c.category();
        if (category == QChar::Other_Control || category == QChar::Other_Format ||
            category == QChar::Other_NotAssigned)
            shown += QStringLiteral("\\u{%1}").arg(
                QString::number(c.unicode(), 16).toUpper().rightJustified(4, QLatin1Char('0')));
        else
            shown += c;
    }
    return shown;
}

} // namespace arizuko::desktop
