#pragma once

// A real store in a temporary data directory, optionally filled from
// fixtures/desktop_store.sql, for the export and import tests.

#include "store/store.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

class ExportFixture
{
public:
    explicit ExportFixture(bool filled = true)
    {
        auto opened = arizuko::store::Store::open(m_dir.path());
        if (!opened)
            qFatal("cannot open the store: %s", qPrintable(opened.error().message));
        m_store = std::move(*opened);
        if (filled)
            run(fixtureSql());
    }

    arizuko::store::Store &store() { return *m_store; }
    QString dataDir() const { return m_dir.path(); }

    void run(const QString &sql)
    {
        // One statement at a time: QSqlQuery runs only the first of several.
        for (const QString &statement : sql.split(QStringLiteral(";\n"), Qt::SkipEmptyParts)) {
            const QString trimmed = statement.trimmed();
            if (trimmed.isEmpty())
                continue;
            QSqlQuery query(m_store->database());
            if (!query.exec(trimmed))
                qFatal("%s: %s", qPrintable(trimmed), qPrintable(query.lastError().text()));
        }
    }

    static QString fixtureSql()
    {
        QFile file(QStringLiteral(EXPORT_FIXTURES "/desktop_store.sql"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read the fixture");
        return QString::fromUtf8(file.readAll());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<arizuko::store::Store> m_store;
};

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
