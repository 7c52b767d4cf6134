#pragma once

// For command groups made of subcommands ("folder add", "secret rm"):
// picking the subcommand, asking for confirmation, and the prologue of
// every command that uses the store, with the same errors everywhere.

#include "context.h"
#include "store/store.h"
#include "turns/runner_settings.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace arizuko::cli {

struct Subcommand
{
    QString name;
    QString synopsis; // e.g. "add <folder> [--name NAME]"
    Exit (*run)(Context &, const QStringList &arguments);
};

// `group` is the command group's name; `arguments` start with the
// subcommand. Prints the synopses for --help, and a usage error naming the
// subcommand that is missing or unknown.
Exit runSubcommand(Context &context, const QString &group, const QStringList &arguments,
                   const QList<Subcommand> &subcommands);

// Asks `question` on the terminal ([y/N]); false without a terminal.
bool confirmed(Context &context, const QString &question);

// The store in the data directory of --data-dir / $ARIZUKO_DATA_DIR / XDG.
Result<std::unique_ptr<store::Store>> openStore(const Context &context);

// What every command that reads or writes the store does once its command
// line is parsed: opens the store, a store that will not open being the
// command's failure, and hands it to `use`, which returns the exit code.
template<typename Use>
Exit withStore(Context &context, Use &&use)
{
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    return use(**opened);
}

// The turn runner's settings: defaults < saved in the store < environment
// < --libvirt-uri.
Result<turns::RunnerSettings> runnerSettings(const Context &context, store::Store &store);

} // namespace arizuko::cli
