#pragma once

// The settings a user saves (window or `arizukoctl settings set`): each
// checked before anything is written, all of a save in one transaction.
// What a turn runs with is defaults < saved < environment variables.

#include "core/result.h"

#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

struct SettingDefinition
{
    QString key;                 // as `arizukoctl settings set` takes it
    const char *environmentVariable; // overrides a saved value when set and not empty
    QString defaultValue;        // empty: "not set" (e.g. the model URL)
};

namespace setting {
inline const QString libvirtUri = QStringLiteral("libvirt-uri");
inline const QString accelerator = QStringLiteral("accelerator");
inline const QString subnetPool = QStringLiteral("subnet-pool");
inline const QString maxTurns = QStringLiteral("max-turns");
inline const QString turnDeadline = QStringLiteral("turn-deadline"); // seconds
inline const QString modelProvider = QStringLiteral("model-provider");
inline const QString modelUrl = QStringLiteral("model-url");
inline const QString model = QStringLiteral("model");
inline const QString warmStart = QStringLiteral("warm-start"); // on | off
inline const QString bootLimit = QStringLiteral("boot-limit"); // seconds
// Breadth caps of delegation (docs/tools.md): turns one turn may start, and
// turns a folder's agents may start in an hour.
inline const QString turnsPerTurn = QStringLiteral("turns-per-turn");
inline const QString turnsPerFolderHour = QStringLiteral("turns-per-folder-hour");
// MiB: a home's file larger than this is recorded in its history by size
// and SHA-256 only (docs/turns.md, "Home history").
inline const QString historyFileLimit = QStringLiteral("history-file-limit");
// on | off: a home's .git directories are recorded in its history too.
inline const QString historyIncludeGit = QStringLiteral("history-include-git");
// A home's history keeps its newest this many turns, and within this many
// MiB on disk (docs/turns.md, "Home history", on the pruning).
inline const QString historyKeepTurns = QStringLiteral("history-keep-turns");
inline const QString historySizeLimit = QStringLiteral("history-size-limit");
} // namespace setting

// Every saved setting, in the order the window and `settings show` list them.
const QList<SettingDefinition> &settingDefinitions();
const SettingDefinition *findSetting(const QString &key);

// The bounds the checks enforce, for the window's spin boxes.
inline constexpr int minTurns = 1;
inline constexpr int maxTurnsLimit = 16;
inline constexpr int minDeadlineSeconds = 60;
inline constexpr int maxDeadlineSeconds = 24 * 60 * 60;
inline constexpr int minBootLimitSeconds = 10;
inline constexpr int maxBootLimitSeconds = 60 * 60;
inline constexpr int minPoolPrefix = 16;
inline constexpr int maxPoolPrefix = 30;
inline constexpr int maxTurnsPerTurnLimit = 100;
inline constexpr int maxTurnsPerFolderHourLimit = 10000;
inline constexpr int maxHistoryFileLimitMiB = 4096;
inline constexpr int maxHistoryKeepTurns = 100000;
inline constexpr int minHistorySizeLimitMiB = 16;
inline constexpr int maxHistorySizeLimitMiB = 1024 * 1024;

// Why `value` is not acceptable for `key` (a sentence naming the problem),
// or nullopt when it is. An empty value means "back to the default" for a
// setting with a default, "not set" for the others, and is always accepted.
std::optional<QString> settingProblem(const QString &key, const QString &value);

// key -> value
using SettingValues = QMap<QString, QString>;

enum class SettingSource { Default, Saved, Environment };
QString settingSourceName(SettingSource source);

struct EffectiveSetting
{
    SettingDefinition definition;
    QString value;      // what a turn started now runs with
    SettingSource source = SettingSource::Default;
    QString savedValue; // empty: nothing saved
};

// The environment's value for a setting: set and not empty, else nullopt.
std::optional<QString> environmentOverride(const SettingDefinition &definition);

// Layers defaults < saved < environment for every setting.
QList<EffectiveSetting> effectiveSettings(const SettingValues &saved);

class SavedSettings
{
public:
    explicit SavedSettings(store::Store &store);

    // The saved values only (keys without a row are not in the map).
    Result<SettingValues> load() const;

    // Checks every change first and writes nothing when one is refused (the
    // error names each refused key and why). Then one transaction: an empty
    // value removes the key, anything else replaces it; each change is
    // audited as settings.set with the old and new value.
    Result<void> save(const SettingValues &changes, const QString &actor);

private:
    store::Store &m_store;
};

} // namespace arizuko::turns
