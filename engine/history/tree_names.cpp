#include "history/tree_names.h"

#include <QList>

namespace arizuko::history {

QByteArray storedName(const QByteArray &name)
{
    return name.startsWith(escapeMark) ? escapedName(name) : name;
}

QByteArray escapedName(const QByteArray &name)
{
    return escapeMark + name;
}

QByteArray homePath(const QByteArray &storedPath)
{
    if (!storedPath.contains(escapeMark))
        return storedPath;
    QList<QByteArray> names = storedPath.split('/');
    for (QByteArray &name : names) {
        if (name.startsWith(escapeMark))
            name.remove(0, 1);
    }
    return names.join('/');
}

QString shownPath(const QByteArray &storedPath)
{
    return QString::fromUtf8(homePath(storedPath));
}

QString diffWithHomePath(const QString &diff, const QByteArray &storedPath)
{
    const QString stored = QString::fromUtf8(storedPath);
    const QString home = shownPath(storedPath);
    if (stored == home)
        return diff;
    // Only the header (up to the first hunk; all of a binary file's diff)
    // names the path; the content is the file's own and is left as it is.
    qsizetype end = diff.indexOf(QStringLiteral("\n@@"));
    if (end < 0)
        end = diff.size();
    QString header = diff.left(end);
    for (const QString &side : {QStringLiteral("a/"), QStringLiteral("b/")})
        header.replace(side + stored, side + home);
    return header + diff.mid(end);
}

} // namespace arizuko::history
