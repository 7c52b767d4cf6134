#pragma once

// A log written one JSON object a line (the HTTPS test server's
// requests.jsonl), read back whole.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace arizuko::test {

// Every object in the file, oldest first; none when it does not exist yet.
inline QList<QJsonObject> jsonLines(const QString &path)
{
    QFile log(path);
    QList<QJsonObject> entries;
    if (!log.open(QIODevice::ReadOnly))
        return entries;
    for (const QByteArray &line : log.readAll().split('\n')) {
        if (!line.isEmpty())
            entries << QJsonDocument::fromJson(line).object();
    }
    return entries;
}

} // namespace arizuko::test
