// arizukoctl settings show|set: the settings turns run with, and where each
// value comes from (default, saved, environment). The same engine API as the
// window's settings dialog.

#include "commands.h"
#include "core/actors.h"
#include "subcommands.h"
#include "turns/saved_settings.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

QJsonObject toJson(const turns::EffectiveSetting &effective)
{
    return {{QStringLiteral("key"), effective.definition.key},
            {QStringLiteral("value"), effective.value},
            {QStringLiteral("source"), turns::settingSourceName(effective.source)},
            {QStringLiteral("saved"),
             effective.savedValue.isEmpty() ? QJsonValue() : effective.savedValue},
            {QStringLiteral("default"), effective.definition.defaultValue},
            {QStringLiteral("environment_variable"),
             QString::fromLatin1(effective.definition.environmentVariable)}};
}

Exit show(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("settings show");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Show each setting, the value turns run with and where it comes from:\n"
                 "default, saved (settings set, or the window) or environment (the variable\n"
                 "named beside it wins over a saved value). The data directory is chosen by\n"
                 "--data-dir or ARIZUKO_DATA_DIR, not by a setting.")},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const auto saved = turns::SavedSettings(store).load();
        if (!saved)
            return context.failure(saved.error());
        const QList<turns::EffectiveSetting> settings = turns::effectiveSettings(*saved);
        if (context.json()) {
            QJsonArray rows;
            for (const turns::EffectiveSetting &effective : settings)
                rows.append(toJson(effective));
            context.printJson(QJsonObject{{QStringLiteral("data_dir"), store.dataDir()},
                                          {QStringLiteral("settings"), rows}});
            return Exit::Ok;
        }
        QList<QStringList> rows;
        for (const turns::EffectiveSetting &effective : settings) {
            QString source = turns::settingSourceName(effective.source);
            if (effective.source == turns::SettingSource::Environment)
                source += QStringLiteral(" (") +
                          QString::fromLatin1(effective.definition.environmentVariable) +
                          (effective.savedValue.isEmpty()
                               ? QString()
                               : QStringLiteral(", saved ") + effective.savedValue) +
                          QStringLiteral(")");
            rows << QStringList{
                effective.definition.key,
                effective.value.isEmpty() ? QStringLiteral("(not set)") : effective.value, source};
        }
        rows << QStringList{QStringLiteral("data-dir"), store.dataDir(),
                            QStringLiteral("--data-dir / ARIZUKO_DATA_DIR")};
        context.printTable({QStringLiteral("KEY"), QStringLiteral("VALUE"), QStringLiteral("FROM")},
                           rows);
        return Exit::Ok;
    });
}

Exit set(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("settings set");
    QCommandLineParser parser;
    QStringList keys;
    for (const turns::SettingDefinition &definition : turns::settingDefinitions())
        keys << definition.key;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Save a setting; an empty VALUE ('') goes back to the default. The value is\n"
                 "checked first and nothing is saved when it is refused. KEY is one of:\n  ") +
                 keys.join(QStringLiteral(", ")) + QStringLiteral("\nturn-deadline is in seconds."),
             {{QStringLiteral("key"), QStringLiteral("The setting.")},
              {QStringLiteral("value"), QStringLiteral("Its new value.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    return withStore(context, [&](store::Store &store) {
        const QString &key = positionals.at(0);
        if (const Result<void> saved =
                turns::SavedSettings(store).save({{key, positionals.at(1)}}, actors::cli);
            !saved)
            return context.failure(saved.error());
        const turns::SettingDefinition *definition = turns::findSetting(key);
        if (const auto overridden = turns::environmentOverride(*definition))
            context.err() << "note: " << definition->environmentVariable << " is set and wins over "
                          << "the saved value while it is\n";
        if (!context.json())
            context.out() << "saved " << key << "\n";
        else
            context.printJson(QJsonObject{{QStringLiteral("key"), key},
                                          {QStringLiteral("saved"), positionals.at(1)}});
        return Exit::Ok;
    });
}

} // namespace

Exit runSettings(Context &context, const QStringList &arguments)
{
    return runSubcommand(context, QStringLiteral("settings"), arguments,
                         {{QStringLiteral("show"), QStringLiteral("show [--json]"), show},
                          {QStringLiteral("set"), QStringLiteral("set KEY VALUE"), set}});
}

} // namespace arizuko::cli
