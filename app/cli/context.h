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

// 0 success, 1 a refused or failed operation, 2 a usage error, 130 (as a
// shell reports SIGINT) work that Ctrl-C cancelled.
enum class Exit : int
{
    Ok = 0,
    Failed = 1,
    Usage = 2,
    Interrupted = 130
};

// A command's positional argument, as --help lists it. Optional ones come
// last and may be left out; a variadic one comes last and takes any number.
struct Positional
{
    enum class Kind
    {
        Required,
        Optional,
        Variadic
    };
    QString name;
    QString help;
    Kind kind = Kind::Required;
    QString syntax = {}; // how --help shows it; empty: the name
};

// What a command's own command line is, besides its options.
struct CommandLine
{
    QString command;     // "folder add": named in --help and in every usage error
    QString description; // the first lines of --help
    QList<Positional> positionals = {};
    // The usage error when more positionals are given than declared; empty:
    // one naming the first extra argument (which must not be echoed when it
    // may be a secret).
    QString tooMany = {};
};

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

    // Parses a command's own arguments with `parser`, which holds the
    // command's options: registers the positionals of `line`, prints --help,
    // and checks how many positionals were given, naming the missing or extra
    // one. Returns an exit code when the command must stop here: Usage after
    // printing what was wrong, Ok after printing --help. The positionals are
    // then parser.positionalArguments() (optional ones left out are absent).
    std::optional<Exit> parse(QCommandLineParser &parser, const CommandLine &line,
                              const QStringList &arguments);

    Exit usageError(const QString &message);
    Exit failure(const QString &message);
    Exit failure(const Error &error);

    // Human output: an aligned table. --json output: one JSON document.
    // Both make control characters inert (terminal_text.h): what they
    // print may be a guest's.
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
