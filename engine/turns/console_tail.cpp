#include "turns/console_tail.h"

#include <QFile>

namespace arizuko::turns {
namespace {

constexpr qint64 tailBytes = 64 * 1024;

QString printable(const QByteArray &line)
{
    QString text;
    for (const QChar character : QString::fromUtf8(line)) {
        if (character == QLatin1Char('\r'))
            continue;
        if (character.category() == QChar::Other_Control && character != QLatin1Char('\t'))
            text += QStringLiteral("\\x%1").arg(character.unicode(), 2, 16, QLatin1Char('0'));
        else
            text += character;
    }
    return text;
}

} // namespace

QStringList consoleTail(const QString &path, int lines)
{
    QFile log(path);
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const qint64 size = log.size();
    if (size > tailBytes)
        log.seek(size - tailBytes);
    QList<QByteArray> raw = log.readAll().split('\n');
    if (size > tailBytes && !raw.isEmpty())
        raw.removeFirst(); // cut mid-line
    QStringList tail;
    for (auto line = raw.crbegin(); line != raw.crend() && tail.size() < lines; ++line) {
        const QString text = printable(*line);
        if (!text.trimmed().isEmpty())
            tail.prepend(text);
    }
    return tail;
}

} // namespace arizuko::turns
