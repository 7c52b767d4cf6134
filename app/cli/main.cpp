// arizukoctl: the engine without a window, for scripts, CI and servers.

#include "commands.h"
#include "global_options.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace arizuko::cli;

void printUsage(QTextStream &out)
{
    out << "Usage: arizukoctl [--data-dir DIR] [--libvirt-uri URI] [--json] <command> "
           "[arguments]\n\n"
           "Global options (anywhere before `--`):\n"
           "  --data-dir DIR     the data directory (default $ARIZUKO_DATA_DIR or\n"
           "                     $XDG_DATA_HOME/arizuko-desktop)\n"
           "  --libvirt-uri URI  the libvirt connection (default $ARIZUKO_LIBVIRT_URI or "
           "qemu:///system)\n"
           "  --json             machine-readable output\n\n"
           "Commands (`arizukoctl <command> --help` for each):\n";
    for (const CommandGroup &group : commandGroups())
        out << "  " << group.synopsis << "\n";
    out << "\nExit status: 0 success, 1 refused or failed, 2 usage error, 130 an image build "
           "cancelled by Ctrl-C.\n";
    out.flush();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("arizukoctl"));
    QCoreApplication::setOrganizationName(QStringLiteral("arizuko"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ARIZUKO_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
    const ParsedCommandLine parsed = parseCommandLine(application.arguments().mid(1));
    Context context(parsed.options, out, err);
    if (!parsed.error.isEmpty())
        return static_cast<int>(context.usageError(parsed.error));
    if (parsed.version) {
        out << "arizukoctl " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    if (parsed.help) {
        printUsage(out);
        return 0;
    }
    if (parsed.command.isEmpty()) {
        printUsage(err);
        return static_cast<int>(Exit::Usage);
    }

    const QString name = parsed.command.first();
    for (const CommandGroup &group : commandGroups()) {
        if (group.name == name)
            return static_cast<int>(group.run(context, parsed.command.mid(1)));
    }
    return static_cast<int>(context.usageError(QStringLiteral("unknown command '%1'").arg(name)));
}
