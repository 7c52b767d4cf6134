#include "global_options.h"

namespace arizuko::cli {
namespace {

// Takes the value of `--name value` or `--name=value`; advances `index`.
bool takeValue(const QStringList &arguments, qsizetype &index, const QString &name, QString &value,
               QString &error)
{
    const QString &argument = arguments[index];
    if (argument.startsWith(name + QLatin1Char('='))) {
        value = argument.mid(name.size() + 1);
    } else if (index + 1 < arguments.size()) {
        value = arguments[++index];
    } else {
        error = QStringLiteral("option '%1' needs a value").arg(name);
        return false;
    }
    if (value.isEmpty()) {
        error = QStringLiteral("option '%1' needs a non-empty value").arg(name);
        return false;
    }
    return true;
}

bool isOption(const QString &argument, const QString &name)
{
    return argument == name || argument.startsWith(name + QLatin1Char('='));
}

} // namespace

ParsedCommandLine parseCommandLine(const QStringList &arguments)
{
    const QString dataDir = QStringLiteral("--data-dir");
    const QString libvirtUri = QStringLiteral("--libvirt-uri");
    ParsedCommandLine parsed;
    bool passThrough = false;
    for (qsizetype index = 0; index < arguments.size(); ++index) {
        const QString &argument = arguments[index];
        if (passThrough) {
            parsed.command << argument;
        } else if (argument == QLatin1String("--")) {
            passThrough = true;
            parsed.command << argument;
        } else if (argument == QLatin1String("--json")) {
            parsed.options.json = true;
        } else if (isOption(argument, dataDir)) {
            if (!takeValue(arguments, index, dataDir, parsed.options.dataDir, parsed.error))
                return parsed;
        } else if (isOption(argument, libvirtUri)) {
            if (!takeValue(arguments, index, libvirtUri, parsed.options.libvirtUri, parsed.error))
                return parsed;
        } else if (parsed.command.isEmpty() &&
                   (argument == QLatin1String("--help") || argument == QLatin1String("-h"))) {
            parsed.help = true;
        } else if (parsed.command.isEmpty() && argument == QLatin1String("--version")) {
            parsed.version = true;
        } else if (parsed.command.isEmpty() && argument.startsWith(QLatin1Char('-'))) {
            parsed.error = QStringLiteral("unknown option '%1'").arg(argument);
            return parsed;
        } else {
            parsed.command << argument;
        }
    }
    return parsed;
}

} // namespace arizuko::cli
