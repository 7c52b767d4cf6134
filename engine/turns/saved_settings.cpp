#include "turns/saved_settings.h"

#include "audit/audit_log.h"
#include "libvirt/accelerator_choice.h"
#include "libvirt/subnet_pool.h"
#include "store/query.h"
#include "store/store.h"
#include "tools/tool_context.h"
#include "turns/model_provider.h"

#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QUrl>

namespace arizuko::turns {
namespace {

constexpr qsizetype maxSettingLength = 512;
constexpr qsizetype shownLength = 60;

bool invisible(QChar character)
{
    switch (character.category()) {
    case QChar::Other_Control:
    case QChar::Other_Format: // RTL/LTR overrides, zero-width characters
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return false;
    }
}

QString hex(QChar character)
{
    return QString::number(character.unicode(), 16).rightJustified(4, QLatin1Char('0')).toUpper();
}

// The value as a message may quote it: invisible characters spelled out as
// \u{XXXX}, cut to a readable length, so an error cannot itself mislead.
QString shown(const QString &value)
{
    QString text;
    for (const QChar character : value.left(shownLength)) {
        if (invisible(character))
            text += QStringLiteral("\\u{%1}").arg(hex(character));
        else
            text += character;
    }
    if (value.size() > shownLength)
        text += QStringLiteral("…");
    return QStringLiteral("'") + text + QStringLiteral("'");
}

// What every setting refuses: over-long values and characters nobody types
// on purpose (NUL, control characters, direction overrides).
std::optional<QString> textProblem(const QString &value)
{
    if (value.size() > maxSettingLength)
        return QStringLiteral("is %1 characters long; at most %2 are accepted")
            .arg(value.size())
            .arg(maxSettingLength);
    for (const QChar character : value) {
        if (invisible(character))
            return QStringLiteral(
                       "contains the invisible character U+%1 (control, NUL or direction "
                       "override); type the value without it")
                .arg(hex(character));
        if (character.isSpace())
            return QStringLiteral("contains a space; no setting has one");
    }
    return std::nullopt;
}

std::optional<QString> libvirtUriProblem(const QString &value)
{
    // driver[+transport]:///path or driver[+transport]://[user@]host[:port]/path
    static const QRegularExpression shape(
        QStringLiteral("^[a-z][a-z0-9]*(\\+[a-z0-9]+)?://[^/]*/.+$"));
    const QUrl url(value, QUrl::StrictMode);
    if (!shape.match(value).hasMatch() || !url.isValid())
        return QStringLiteral(
                   "%1 is not a libvirt URI: write driver[+transport]://[host]/path, e.g. "
                   "qemu:///system or qemu+ssh://user@host/system")
            .arg(shown(value));
    return std::nullopt;
}

std::optional<QString> numberProblem(const QString &value, int lowest, int highest,
                                     const QString &unit)
{
    bool ok = false;
    const int number = value.toInt(&ok);
    if (!ok || number < lowest || number > highest)
        return QStringLiteral("%1 is not a whole number of %2 from %3 to %4")
            .arg(shown(value), unit)
            .arg(lowest)
            .arg(highest);
    return std::nullopt;
}

std::optional<QString> subnetPoolProblem(const QString &value)
{
    const auto range = libvirt::Ipv4Range::parse(value);
    if (!range)
        return QStringLiteral("%1 is not an IPv4 network in CIDR form (e.g. 10.213.0.0/16): %2")
            .arg(shown(value), range.error().message);
    if (range->prefixLength < minPoolPrefix || range->prefixLength > maxPoolPrefix)
        return QStringLiteral(
                   "%1 is a /%2; the pool must be a /%3 to a /%4 (room for 1 to 16384 turn "
                   "networks of four addresses)")
            .arg(shown(value))
            .arg(range->prefixLength)
            .arg(minPoolPrefix)
            .arg(maxPoolPrefix);
    return std::nullopt;
}

std::optional<QString> modelUrlProblem(const QString &value)
{
    const QUrl url(value, QUrl::StrictMode);
    if (!url.isValid() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
        url.host().isEmpty())
        return QStringLiteral(
                   "%1 is not an http(s) URL with a host, e.g. https://models.example.com")
            .arg(shown(value));
    if (!url.userInfo().isEmpty())
        return QStringLiteral(
                   "%1 carries a user name or password; put the credential in the secret "
                   "ANTHROPIC_API_KEY instead")
            .arg(shown(url.toString(QUrl::RemoveUserInfo)));
    return std::nullopt;
}

std::optional<QString> modelNameProblem(const QString &value)
{
    static const QRegularExpression name(
        QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._:@/\\[\\]-]{0,127}$"));
    if (!name.match(value).hasMatch())
        return QStringLiteral(
                   "%1 is not a model name: use up to 128 letters, digits and . _ : @ / - [ ], "
                   "e.g. claude-sonnet-4-5")
            .arg(shown(value));
    return std::nullopt;
}

} // namespace

const QList<SettingDefinition> &settingDefinitions()
{
    static const QList<SettingDefinition> definitions{
        {setting::libvirtUri, "ARIZUKO_LIBVIRT_URI", QStringLiteral("qemu:///system")},
        {setting::accelerator, "ARIZUKO_ACCELERATOR", QStringLiteral("auto")},
        {setting::subnetPool, "ARIZUKO_SUBNET_POOL",
         QString::fromLatin1(libvirt::SubnetPool::defaultPool)},
        {setting::maxTurns, "ARIZUKO_MAX_TURNS", QStringLiteral("2")},
        {setting::turnDeadline, "ARIZUKO_TURN_DEADLINE", QStringLiteral("1800")},
        {setting::modelProvider, "ARIZUKO_MODEL_PROVIDER", QStringLiteral("auto")},
        {setting::modelUrl, "ARIZUKO_MODEL_URL", QString()},
        {setting::model, "ARIZUKO_MODEL", QString()},
        {setting::warmStart, "ARIZUKO_WARM_START", QStringLiteral("off")},
        // Sized for TCG on a busy machine: a turn's guest reports 3 to 6 s
        // after the VM starts there, a KVM guest in under a second.
        {setting::bootLimit, "ARIZUKO_BOOT_LIMIT", QStringLiteral("120")},
        {setting::turnsPerTurn, "ARIZUKO_TURNS_PER_TURN",
         QString::number(tools::defaultTurnsPerTurn)},
        {setting::turnsPerFolderHour, "ARIZUKO_TURNS_PER_FOLDER_HOUR",
         QString::number(tools::defaultTurnsPerFolderHour)},
        {setting::historyFileLimit, "ARIZUKO_HISTORY_FILE_LIMIT", QStringLiteral("50")},
        {setting::historyIncludeGit, "ARIZUKO_HISTORY_INCLUDE_GIT", QStringLiteral("off")},
        {setting::historyKeepTurns, "ARIZUKO_HISTORY_KEEP_TURNS", QStringLiteral("200")},
        {setting::historySizeLimit, "ARIZUKO_HISTORY_SIZE_LIMIT", QStringLiteral("2048")},
    };
    return definitions;
}

const SettingDefinition *findSetting(const QString &key)
{
    for (const SettingDefinition &definition : settingDefinitions()) {
        if (definition.key == key)
            return &definition;
    }
    return nullptr;
}

std::optional<QString> settingProblem(const QString &key, const QString &value)
{
    if (!findSetting(key))
        return QStringLiteral("there is no setting %1; the settings are %2").arg(shown(key), [] {
            QStringList keys;
            for (const SettingDefinition &definition : settingDefinitions())
                keys << definition.key;
            return keys.join(QStringLiteral(", "));
        }());
    if (value.isEmpty())
        return std::nullopt;
    if (auto problem = textProblem(value))
        return problem;
    if (key == setting::libvirtUri)
        return libvirtUriProblem(value);
    if (key == setting::accelerator) {
        if (auto parsed = libvirt::parseAcceleratorSetting(value); !parsed)
            return QStringLiteral("%1 is not an accelerator: write auto, kvm or tcg")
                .arg(shown(value));
        return std::nullopt;
    }
    if (key == setting::subnetPool)
        return subnetPoolProblem(value);
    if (key == setting::maxTurns)
        return numberProblem(value, minTurns, maxTurnsLimit, QStringLiteral("turns"));
    if (key == setting::turnsPerTurn)
        return numberProblem(value, 1, maxTurnsPerTurnLimit, QStringLiteral("turns"));
    if (key == setting::turnsPerFolderHour)
        return numberProblem(value, 1, maxTurnsPerFolderHourLimit, QStringLiteral("turns"));
    if (key == setting::historyFileLimit)
        return numberProblem(value, 1, maxHistoryFileLimitMiB, QStringLiteral("MiB"));
    if (key == setting::historyKeepTurns)
        return numberProblem(value, 1, maxHistoryKeepTurns, QStringLiteral("turns"));
    if (key == setting::historySizeLimit)
        return numberProblem(value, minHistorySizeLimitMiB, maxHistorySizeLimitMiB,
                             QStringLiteral("MiB"));
    if (key == setting::turnDeadline)
        return numberProblem(value, minDeadlineSeconds, maxDeadlineSeconds,
                             QStringLiteral("seconds"));
    if (key == setting::bootLimit)
        return numberProblem(value, minBootLimitSeconds, maxBootLimitSeconds,
                             QStringLiteral("seconds"));
    if (key == setting::modelProvider) {
        if (auto parsed = parseModelProviderChoice(value); !parsed)
            return QStringLiteral("%1 is not a model provider: write auto, api-key, oauth or demo")
                .arg(shown(value));
        return std::nullopt;
    }
    if (key == setting::modelUrl)
        return modelUrlProblem(value);
    if (key == setting::warmStart || key == setting::historyIncludeGit) {
        if (value != QLatin1String("on") && value != QLatin1String("off"))
            return QStringLiteral("%1 is not a %2 choice: write on or off").arg(shown(value), key);
        return std::nullopt;
    }
    return modelNameProblem(value);
}

QString settingSourceName(SettingSource source)
{
    switch (source) {
    case SettingSource::Saved:
        return QStringLiteral("saved");
    case SettingSource::Environment:
        return QStringLiteral("environment");
    case SettingSource::Default:
        break;
    }
    return QStringLiteral("default");
}

std::optional<QString> environmentOverride(const SettingDefinition &definition)
{
    const QString value = qEnvironmentVariable(definition.environmentVariable);
    if (value.isEmpty())
        return std::nullopt;
    return value;
}

QList<EffectiveSetting> effectiveSettings(const SettingValues &saved)
{
    QList<EffectiveSetting> settings;
    for (const SettingDefinition &definition : settingDefinitions()) {
        EffectiveSetting effective{definition, definition.defaultValue, SettingSource::Default,
                                   saved.value(definition.key)};
        if (!effective.savedValue.isEmpty()) {
            effective.value = effective.savedValue;
            effective.source = SettingSource::Saved;
        }
        if (const auto overridden = environmentOverride(definition)) {
            effective.value = *overridden;
            effective.source = SettingSource::Environment;
        }
        settings << effective;
    }
    return settings;
}

SavedSettings::SavedSettings(store::Store &store)
    : m_store(store)
{}

Result<SettingValues> SavedSettings::load() const
{
    auto query =
        store::execute(m_store.database(), QStringLiteral("SELECT key, value FROM settings"));
    if (!query)
        return query.error();
    SettingValues values;
    while (query->next())
        values.insert(query->value(0).toString(), query->value(1).toString());
    return values;
}

Result<void> SavedSettings::save(const SettingValues &changes, const QString &actor)
{
    QStringList refused;
    for (auto change = changes.cbegin(); change != changes.cend(); ++change) {
        if (const auto problem = settingProblem(change.key(), change.value()))
            refused << QStringLiteral("%1: %2").arg(shown(change.key()), *problem);
    }
    if (!refused.isEmpty())
        return makeError(QStringLiteral("settings.invalid"),
                         QStringLiteral("nothing was saved: ") +
                             refused.join(QStringLiteral("; ")));
    audit::AuditLog audit(m_store);
    return audit.writeAudited([&]() -> Result<void> {
        const QSqlDatabase database = m_store.database();
        auto before = load();
        if (!before)
            return before.error();
        for (auto change = changes.cbegin(); change != changes.cend(); ++change) {
            const QString old = before->value(change.key());
            if (old == change.value())
                continue;
            auto written =
                change.value().isEmpty()
                    ? store::execute(database, QStringLiteral("DELETE FROM settings WHERE key = ?"),
                                     {change.key()})
                    : store::execute(
                          database,
                          QStringLiteral("INSERT INTO settings (key, value) VALUES (?, ?) "
                                         "ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
                          {change.key(), change.value()});
            if (!written)
                return written.error();
            const QJsonObject detail{{QStringLiteral("key"), change.key()},
                                     {QStringLiteral("from"), old},
                                     {QStringLiteral("to"), change.value()}};
            if (auto recorded =
                    audit.record(actor, QStringLiteral("settings.set"), change.key(), detail);
                !recorded)
                return recorded.error();
        }
        return {};
    });
}

} // namespace arizuko::turns
