#pragma once

// The folders whose rules a folder inherits: the base '' first, then each
// ancestor, then the folder itself ("a/b" -> "", "a", "a/b").

#include <QString>
#include <QStringList>

namespace arizuko::policy {

inline QStringList folderAncestry(const QString &folder)
{
    QStringList chain{QString()};
    for (qsizetype slash = folder.indexOf(u'/'); slash >= 0;
         slash = folder.indexOf(u'/', slash + 1))
        chain << folder.first(slash);
    if (!folder.isEmpty())
        chain << folder;
    return chain;
}

} // namespace arizuko::policy
