#include "subcommands.h"

#include "store/data_dir.h"

#include <QFile>
#include <unistd.h>

namespace arizuko::cli {

Exit runSubcommand(Context &context, const QString &group, const QStringList &arguments,
                   const QList<Subcommand> &subcommands)
{
    const auto printSynopses = [&](QTextStream &stream) {
        stream << "Usage:\n";
        for (const Subcommand &subcommand : subcommands)
            stream << "  arizukoctl " << group << " " << subcommand.synopsis << "\n";
        stream.flush();
    };
    if (arguments.isEmpty()) {
        printSynopses(context.err());
        return context.usageError(QStringLiteral("%1: missing subcommand").arg(group));
    }
    const QString &name = arguments.first();
    if (name == QLatin1String("--help") || name == QLatin1String("-h")) {
        printSynopses(context.out());
        return Exit::Ok;
    }
    for (const Subcommand &subcommand : subcommands) {
        if (subcommand.name == name)
            return subcommand.run(context, arguments.mid(1));
    }
    printSynopses(context.err());
    return context.usageError(QStringLiteral("%1: unknown subcommand '%2'").arg(group, name));
}

Result<std::unique_ptr<store::Store>> openStore(const Context &context)
{
    return store::Store::open(store::resolveDataDir(context.options().dataDir));
}

Result<turns::RunnerSettings> runnerSettings(const Context &context, store::Store &store)
{
    auto settings = turns::RunnerSettings::load(store);
    if (settings && !context.options().libvirtUri.isEmpty())
        settings->libvirtUri = context.options().libvirtUri;
    return settings;
}

bool confirmed(Context &context, const QString &question)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    context.out() << question << " [y/N] ";
    context.out().flush();
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return false;
    const QByteArray answer = input.readLine(16).trimmed().toLower();
    return answer == "y" || answer == "yes";
}

} // namespace arizuko::cli
