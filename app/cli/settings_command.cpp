// arizukoctl settings show|set: the settings turns run with, and where each
// value comes from (default, saved, environment). The same engine API as the
// window's settings dialog.

#include "commands.h"
#include "subcommands.h"
#include "turns/saved_settings.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace arizuko::cli {
namespace {

const QString actor = u"user:cli"_s;

QJsonObject toJson(const turns::EffectiveSetting &effective)
{
    return {{u"key"_s, effective.definition.key},
            {u"value"_s, effective.value},
            {u"source"_s, turns::settingSourceName(effective.source)},
            {u"saved"_s, effective.savedValue.isEmpty() ? QJsonValue() : effective.savedValue},
            {u"default"_s, effective.definition.defaultValue},
            {u"environment_variable"_s,
             QString::fromLatin1(effective.definition.environmentVariable)}};
}

Exit show(Context &context, const QStringList &arguments)
{
    const QString command = u"settings show"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Show each setting, the value turns run with and where it comes from:\n"
        u"default, saved (settings set, or the window) or environment (the variable\n"
        u"named beside it wins over a saved value). The data directory is chosen by\n"
        u"--data-dir or ARIZUKO_DATA_DIR, not by a setting."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop = expectPositionals(context, command, parser.positionalArguments(), {}))
        return *stop;
    auto store = openStore(context);
    if (!store)
        return context.failure(store.error());
    const auto saved = turns::SavedSettings(**store).load();
    if (!saved)
        return context.failure(saved.error());
    const QList<turns::EffectiveSetting> settings = turns::effectiveSettings(*saved);
    if (context.json()) {
        QJsonArray rows;
        for (const turns::EffectiveSetting &effective : settings)
            rows.append(toJson(effective));
        context.printJson(QJsonObject{{u"data_dir"_s, (*store)->dataDir()}, {u"settings"_s, rows}});
        return Exit::Ok;
    }
    QList<QStringList> rows;
    for (const turns::EffectiveSetting &effective : settings) {
        QString source = turns::settingSourceName(effective.source);
        if (effective.source == turns::SettingSource::Environment)
            source += u" ("_s + QString::fromLatin1(effective.definition.environmentVariable) +
                      (effective.savedValue.isEmpty() ? QString()
                                                      : u", saved "_s + effective.savedValue) +
                      u")"_s;
        rows << QStringList{effective.definition.key,
                            effective.value.isEmpty() ? u"(not set)"_s : effective.value, source};
    }
    rows << QStringList{u"data-dir"_s, (*store)->dataDir(), u"--data-dir / ARIZUKO_DATA_DIR"_s};
    context.printTable({u"KEY"_s, u"VALUE"_s, u"FROM"_s}, rows);
    return Exit::Ok;
}

Exit set(Context &context, const QStringList &arguments)
{
    const QString command = u"settings set"_s;
    QCommandLineParser parser;
    QStringList keys;
    for (const turns::SettingDefinition &definition : turns::settingDefinitions())
        keys << definition.key;
    parser.setApplicationDescription(
        u"Save a setting; an empty VALUE ('') goes back to the default. The value is\n"
        u"checked first and nothing is saved when it is refused. KEY is one of:\n  "_s +
        keys.join(u", "_s) + u"\nturn-deadline is in seconds."_s);
    parser.addPositionalArgument(u"key"_s, u"The setting."_s);
    parser.addPositionalArgument(u"value"_s, u"Its new value."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop = expectPositionals(context, command, positionals, {u"key"_s, u"value"_s}))
        return *stop;
    auto store = openStore(context);
    if (!store)
        return context.failure(store.error());
    const QString &key = positionals.at(0);
    if (const Result<void> saved =
            turns::SavedSettings(**store).save({{key, positionals.at(1)}}, actor);
        !saved)
        return context.failure(saved.error());
    const turns::SettingDefinition *definition = turns::findSetting(key);
    if (const auto overridden = turns::environmentOverride(*definition))
        context.err() << "note: " << definition->environmentVariable << " is set and wins over "
                      << "the saved value while it is\n";
    if (!context.json())
        context.out() << "saved " << key << "\n";
    else
        context.printJson(QJsonObject{{u"key"_s, key}, {u"saved"_s, positionals.at(1)}});
    return Exit::Ok;
}

} // namespace

Exit runSettings(Context &context, const QStringList &arguments)
{
    return runSubcommand(context, u"settings"_s, arguments,
                         {{u"show"_s, u"show [--json]"_s, show},
                          {u"set"_s, u"set KEY VALUE"_s, set}});
}

} // namespace arizuko::cli
