#include "settings_dialog.h"

#include "engine/workspace.h"
#include "guest_image_panel.h"
#include "libvirt/machine_status.h"
#include "safe_text.h"
#include "turns/runner_settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

namespace arizuko::desktop {
namespace {

QLabel *makeNote(QWidget *parent, const QString &objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setVisible(false);
    return label;
}

QComboBox *makeChoice(QWidget *parent, const QList<std::pair<QString, QString>> &choices)
{
    auto *box = new QComboBox(parent);
    for (const auto &[value, text] : choices)
        box->addItem(text, value);
    return box;
}

} // namespace

SettingsDialog::SettingsDialog(engine::Workspace &workspace, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_form(new QFormLayout)
    , m_connection(new QLabel(this))
    , m_check(new QPushButton(tr("C&heck connection"), this))
    , m_image(new GuestImagePanel(host::guestImageDirectory(), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));

    const auto addLine = [this](const QString &key, const QString &label,
                                const QString &placeholder) {
        auto *line = new QLineEdit(this);
        line->setPlaceholderText(placeholder);
        addField(key, label, line, [line] { return line->text(); },
                 [line](const QString &value) { line->setText(value); });
        connect(line, &QLineEdit::textChanged, this, [this, key] {
            for (Field &field : m_fields) {
                if (field.key == key)
                    checkField(field);
            }
        });
    };
    const auto addChoice = [this](const QString &key, const QString &label, QComboBox *box) {
        addField(
            key, label, box, [box] { return box->currentData().toString(); },
            [box](const QString &value) {
                box->setCurrentIndex(std::max(0, box->findData(value)));
            });
    };

    addLine(turns::setting::libvirtUri, tr("&libvirt URI:"), QStringLiteral("qemu:///system"));
    auto *checkRow = new QHBoxLayout;
    m_check->setObjectName(QStringLiteral("checkConnection"));
    m_connection->setObjectName(QStringLiteral("connectionState"));
    m_connection->setWordWrap(true);
    m_connection->setTextFormat(Qt::PlainText);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    checkRow->addWidget(m_check);
    checkRow->addWidget(m_connection, 1);
    m_form->addRow(QString(), checkRow);
    addChoice(
        turns::setting::accelerator, tr("&Accelerator:"),
        makeChoice(this, {{QStringLiteral("auto"),
                           tr("auto: KVM when a guest really boots under it, else TCG")},
                          {QStringLiteral("kvm"), tr("KVM (forced)")},
                          {QStringLiteral("tcg"), tr("TCG (forced; slower, works everywhere)")}}));
    addLine(turns::setting::subnetPool, tr("&Subnet pool:"), QStringLiteral("10.213.0.0/16"));

    auto *turnsAtOnce = new QSpinBox(this);
    turnsAtOnce->setRange(turns::minTurns, turns::maxTurnsLimit);
    addField(turns::setting::maxTurns, tr("&Turns at once:"), turnsAtOnce,
             [turnsAtOnce] { return QString::number(turnsAtOnce->value()); },
             [turnsAtOnce](const QString &value) { turnsAtOnce->setValue(value.toInt()); });
    auto *deadline = new QSpinBox(this);
    deadline->setRange(turns::minDeadlineSeconds / 60, turns::maxDeadlineSeconds / 60);
    deadline->setSuffix(tr(" min"));
    addField(turns::setting::turnDeadline, tr("Default &deadline:"), deadline,
             [deadline] { return QString::number(deadline->value() * 60); },
             [deadline](const QString &value) { deadline->setValue((value.toInt() + 59) / 60); });
    addChoice(turns::setting::warmStart, tr("&Warm start:"),
              makeChoice(this, {{QStringLiteral("off"),
                                 tr("off: each turn boots its VM after the prompt")},
                                {QStringLiteral("on"),
                                 tr("on: boot the next turn's VM ahead (costs one idle VM's "
                                    "memory and CPU)")}}));
    auto *historyLimit = new QSpinBox(this);
    historyLimit->setRange(1, turns::maxHistoryFileLimitMiB);
    historyLimit->setSuffix(tr(" MiB"));
    addField(
        turns::setting::historyFileLimit, tr("History &file limit:"), historyLimit,
        [historyLimit] { return QString::number(historyLimit->value()); },
        [historyLimit](const QString &value) { historyLimit->setValue(value.toInt()); });
    auto *keepTurns = new QSpinBox(this);
    keepTurns->setRange(1, turns::maxHistoryKeepTurns);
    keepTurns->setSuffix(tr(" turns"));
    addField(
        turns::setting::historyKeepTurns, tr("History &keeps:"), keepTurns,
        [keepTurns] { return QString::number(keepTurns->value()); },
        [keepTurns](const QString &value) { keepTurns->setValue(value.toInt()); });
    auto *sizeLimit = new QSpinBox(this);
    sizeLimit->setRange(turns::minHistorySizeLimitMiB, turns::maxHistorySizeLimitMiB);
    sizeLimit->setSuffix(tr(" MiB"));
    addField(
        turns::setting::historySizeLimit, tr("History si&ze limit:"), sizeLimit,
        [sizeLimit] { return QString::number(sizeLimit->value()); },
        [sizeLimit](const QString &value) { sizeLimit->setValue(value.toInt()); });
    addChoice(turns::setting::historyIncludeGit, tr("History of .&git:"),
              makeChoice(this, {{QStringLiteral("off"),
                                 tr("off: a home's .git directories are left out of its history")},
                                {QStringLiteral("on"),
                                 tr("on: recorded, shown and undone like any other files")}}));

    addChoice(
        turns::setting::modelProvider, tr("&Model provider:"),
        makeChoice(this,
                   {{QStringLiteral("auto"), tr("auto: the API key, else the OAuth token")},
                    {QStringLiteral("api-key"), tr("API key (secret ANTHROPIC_API_KEY)")},
                    {QStringLiteral("oauth"), tr("OAuth token (secret ANTHROPIC_OAUTH_TOKEN)")},
                    {QStringLiteral("demo"), tr("demo model (offline, no key)")}}));
    auto *credential = new QHBoxLayout;
    auto *credentialNote = new QLabel(
        tr("The key or token itself is a secret, never a setting."), this);
    credentialNote->setWordWrap(true);
    auto *openSecrets = new QPushButton(tr("Open &secrets…"), this);
    openSecrets->setObjectName(QStringLiteral("openSecrets"));
    connect(openSecrets, &QPushButton::clicked, this, &SettingsDialog::secretsEditorRequested);
    credential->addWidget(credentialNote, 1);
    credential->addWidget(openSecrets);
    m_form->addRow(tr("Credential:"), credential);
    addLine(turns::setting::modelUrl, tr("Compatible model &URL:"),
            tr("empty: the Anthropic API"));
    addLine(turns::setting::model, tr("Model &name:"), tr("empty: Claude Code's default"));

    auto *dataDir = new QLabel(
        tr("%1\nChosen before start: set ARIZUKO_DATA_DIR (arizukoctl: --data-dir) to use "
           "another directory; each directory has its own settings, folders and secrets.")
            .arg(workspace.dataDir()),
        this);
    dataDir->setObjectName(QStringLiteral("dataDir"));
    dataDir->setWordWrap(true);
    dataDir->setTextFormat(Qt::PlainText);
    dataDir->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->addRow(tr("Data directory:"), dataDir);

    auto *engineBox = new QGroupBox(tr("Engine"), this);
    engineBox->setLayout(m_form);
    auto *imageBox = new QGroupBox(tr("Guest image"), this);
    (new QVBoxLayout(imageBox))->addWidget(m_image);

    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setObjectName(QStringLiteral("save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_check, &QPushButton::clicked, this, &SettingsDialog::checkConnection);
    connect(&m_checking, &QFutureWatcher<host::HostStatus>::finished, this,
            [this] { showConnection(m_checking.result()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(engineBox);
    layout->addWidget(imageBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(820, 720);

    connect(&workspace, &engine::Workspace::settingsChanged, this, &SettingsDialog::reloadSaved);
    m_status->setText(tr("Reading the saved settings\u2026"));
    updateSaveButton();
    reloadSaved();
}

void SettingsDialog::addField(const QString &key, const QString &label, QWidget *editor,
                              std::function<QString()> value,
                              std::function<void(const QString &)> setValue)
{
    editor->setObjectName(key);
    editor->setAccessibleName(QString(label).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
    Field field{key, editor, std::move(value), std::move(setValue),
                makeNote(this, key + QStringLiteral("-problem")),
                makeNote(this, key + QStringLiteral("-environment")), QString()};
    field.loaded = field.value();
    field.problem->setStyleSheet(QStringLiteral("color: #b00020"));
    auto *column = new QVBoxLayout;
    column->addWidget(editor);
    column->addWidget(field.problem);
    column->addWidget(field.environment);
    // A row of a layout gets no buddy from QFormLayout: set it, so the
    // label's mnemonic focuses the field.
    auto *name = new QLabel(label, this);
    name->setBuddy(editor);
    m_form->addRow(name, column);
    m_fields << std::move(field);
}

void SettingsDialog::reloadSaved()
{
    m_workspace.loadSettings(
        this, [this, read = ++m_reads](const Result<turns::SettingValues> &saved) {
            if (read != m_reads)
                return;
            if (!saved) {
                m_status->setText(tr("Cannot read the saved settings: %1")
                                      .arg(printable(saved.error().message, 400)));
                return;
            }
            if (!std::exchange(m_readOnce, true))
                m_status->clear();
            showSaved(*saved);
            updateSaveButton();
            emit loaded();
        });
}

void SettingsDialog::updateSaveButton()
{
    // Before the first read the fields hold no saved value to compare with.
    m_save->setEnabled(m_readOnce && !m_saving);
}

void SettingsDialog::showSaved(const turns::SettingValues &saved)
{
    m_saved = saved;
    for (const turns::EffectiveSetting &effective : turns::effectiveSettings(m_saved)) {
        for (Field &field : m_fields) {
            if (field.key != effective.definition.key)
                continue;
            const QString shown = effective.savedValue.isEmpty() ? effective.definition.defaultValue
                                                                 : effective.savedValue;
            // A field being edited keeps what the person typed.
            if (field.value() == field.loaded) {
                field.setValue(shown);
                field.loaded = field.value();
            }
            const bool overridden = effective.source == turns::SettingSource::Environment;
            field.environment->setVisible(overridden);
            if (overridden)
                field.environment->setText(
                    tr("Overridden by the environment: %1=%2 wins while it is set; the saved "
                       "value applies without it.")
                        .arg(QString::fromLatin1(effective.definition.environmentVariable),
                             printable(effective.value, 120)));
            checkField(field);
        }
    }
}

bool SettingsDialog::checkField(Field &field)
{
    const std::optional<QString> problem = turns::settingProblem(field.key, field.value());
    field.problem->setVisible(problem.has_value());
    if (problem)
        field.problem->setText(tr("Refused: %1").arg(printable(*problem, 400)));
    return !problem;
}

turns::SettingValues SettingsDialog::changes() const
{
    turns::SettingValues changed;
    for (const Field &field : m_fields) {
        const QString value = field.value();
        if (value == field.loaded)
            continue;
        const turns::SettingDefinition *definition = turns::findSetting(field.key);
        // The default is stored as "nothing saved", so a later default change reaches it.
        changed.insert(field.key, value == definition->defaultValue ? QString() : value);
    }
    return changed;
}

bool SettingsDialog::save()
{
    bool valid = true;
    for (Field &field : m_fields)
        valid = checkField(field) && valid;
    if (!valid) {
        m_status->setText(tr("Nothing was saved: correct the fields marked Refused."));
        return false;
    }
    if (!m_readOnce) {
        m_status->setText(tr("Nothing was saved: the saved settings are still being read."));
        return false;
    }
    if (m_saving)
        return false;
    const turns::SettingValues changed = changes();
    if (changed.isEmpty()) {
        m_status->setText(tr("Nothing to save: no field was changed."));
        return true;
    }
    // What each field showed when saved: typing on meanwhile is kept.
    QMap<QString, QString> shown;
    for (const Field &field : std::as_const(m_fields))
        shown.insert(field.key, field.value());
    m_saving = true;
    updateSaveButton();
    m_status->setText(tr("Saving\u2026"));
    m_workspace.saveSettings(changed, this,
                             [this, shown, count = changed.size()](const Result<void> &saved) {
                                 showSaveResult(saved, shown, count);
                             });
    return true;
}

void SettingsDialog::showSaveResult(const Result<void> &saved, const QMap<QString, QString> &shown,
                                    qsizetype count)
{
    m_saving = false;
    updateSaveButton();
    if (!saved) {
        m_status->setText(printable(saved.error().message, 600));
        emit saveFinished(false);
        return;
    }
    for (Field &field : m_fields)
        field.loaded = shown.value(field.key);
    reloadSaved();
    m_status->setText(tr("Saved %n setting(s). arizukoctl uses them from its next command; this "
                         "window's turns use them after a restart.",
                         nullptr, int(count)));
    emit saveFinished(true);
}

void SettingsDialog::checkConnection()
{
    if (m_checking.isRunning())
        return;
    turns::SettingValues values = m_saved;
    for (const Field &field : m_fields)
        values.insert(field.key, field.value());
    auto settings = turns::RunnerSettings::fromLayers(values);
    if (!settings) {
        m_connection->setText(tr("Not checked: %1").arg(printable(settings.error().message, 400)));
        return;
    }
    // The URI in the field is the one to check, even when the environment
    // overrides it for turns.
    settings->libvirtUri = values.value(turns::setting::libvirtUri);
    if (settings->libvirtUri.isEmpty())
        settings->libvirtUri = turns::findSetting(turns::setting::libvirtUri)->defaultValue;
    m_check->setEnabled(false);
    m_connection->setText(tr("Checking %1…").arg(printable(settings->libvirtUri, 200)));
    m_checking.setFuture(QtConcurrent::run(&libvirt::collectMachineStatus, *settings));
}

void SettingsDialog::showConnection(const host::HostStatus &status)
{
    m_check->setEnabled(true);
    const host::LibvirtStatus &libvirt = status.libvirt;
    m_connection->setText(
        libvirt.reachable
            ? tr("Connected to %1 (libvirt %2). Turns run under %3: %4")
                  .arg(printable(libvirt.uri, 200), libvirt.version,
                       host::acceleratorName(status.accelerator.accelerator).toUpper(),
                       status.accelerator.reason)
            : tr("Cannot connect to %1: %2\n%3")
                  .arg(printable(libvirt.uri, 200), printable(libvirt.error, 300), libvirt.hint));
    emit connectionChecked(status);
}

} // namespace arizuko::desktop
