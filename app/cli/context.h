#pragma once

// What every arizukoctl command is handed: the global options and the two
// output streams, with the helpers that keep output and exit codes uniform.

#include "core/result.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

class QCommandLineParser;

namespace arizuko::cli {

// 0 success, 1 a refused or failed operation, 2 a usage error.
enum class Exit : int { Ok = 0, Failed = 1, Usage = 2 };

struct GlobalOptions
{
    QString dataDir;    // empty: the store's default resolution
    QString libvirtUri; // empty: the setting libvirt-uri (turns/saved_settings.h)
    bool json = false;
};

class Context
{
public:
    Context(GlobalOptions options, QTextStream &out, QTextStream &err);

    const GlobalOptions &options() const { return m_options; }
    bool json() const { return m_options.json; }
    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }

    // Parses a command's own arguments. Returns an exit code when the
    // command must stop here: Usage after printing what was wrong, Ok after
    // printing --help.
    std::optional<Exit> parse(QCommandLineParser &parser, const QString &command,
                              const QStringList &arguments);

    Exit usageError(const QString &message);
    Exit failure(const QString &message);
    Exit failure(const Error &error);

    // Human output: an aligned table. --json output: one JSON document.
    void printTable(const QStringList &headers, const QList<QStringList> &rows);
    void printJson(const QJsonValue &value);
    // A list either way: with --json one array of json(item), else a table
    // of row(item) under `headers`.
    template<typename Item, typename ToJson, typename ToRow>
    void printList(const QList<Item> &items, const QStringList &headers, ToJson &&json,
                   ToRow &&row);

private:
    GlobalOptions m_options;
    QTextStream &m_out;
    QTextStream &m_err;
};

template<typename Item, typename ToJson, typename ToRow>
void Context::printList(const QList<Item> &items, const QStringList &headers, ToJson &&json,
                        ToRow &&row)
{
    if (m_options.json) {
        QJsonArray array;
        for (const Item &item : items)
            array.append(json(item));
        printJson(array);
        return;
    }
    QList<QStringList> rows;
    for (const Item &item : items)
        rows.append(row(item));
    printTable(headers, rows);
}

} // namespace arizuko::cli
