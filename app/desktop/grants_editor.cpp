#include "grants_editor.h"

#include "editor_widgets.h"
#include "engine/workspace.h"
#include "models/effective_tool_model.h"
#include "models/grant_model.h"
#include "safe_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <iterator>

namespace arizuko::desktop {
namespace {

struct Preset
{
    const char *label;
    const char *action;
    const char *scopeSuffix; // appended to the folder
    policy::Effect effect;
};

// The grants people ask for most; each fills the form, nothing is written
// until Add. The texts are translated where they are shown.
constexpr Preset presets[] = {
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Reply in this folder's chats"),
     "mcp:reply", "", policy::Effect::Allow},
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Send files from this folder"),
     "mcp:send_file", "", policy::Effect::Allow},
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Every tool in this folder"), "mcp:*", "",
     policy::Effect::Allow},
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Every tool in this folder and below"),
     "mcp:*", "/**", policy::Effect::Allow},
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Reach every host (egress)"), "egress", "",
     policy::Effect::Allow},
    {QT_TRANSLATE_NOOP("arizuko::desktop::GrantsEditor", "Deny a tool (type its name)"), "mcp:", "",
     policy::Effect::Deny},
};

} // namespace

GrantsEditor::GrantsEditor(engine::Workspace &workspace, const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_model(workspace.make<models::GrantModel>(this))
    , m_tools(workspace.make<models::EffectiveToolModel>(this))
    , m_folder(new QComboBox(this))
    , m_table(
          makeReadOnlyTable(this, QStringLiteral("grants"), tr("Grants that apply to the folder")))
    , m_preset(new QComboBox(this))
    , m_principal(new QLineEdit(this))
    , m_action(new QLineEdit(this))
    , m_scope(new QLineEdit(this))
    , m_effect(new QComboBox(this))
    , m_params(new QLineEdit(this))
    , m_grantOption(new QCheckBox(tr("May &delegate it onward"), this))
    , m_validation(new QLabel(this))
    , m_confirmBroad(new QCheckBox(this))
    , m_add(new QPushButton(tr("&Add grant"), this))
    , m_remove(new QPushButton(tr("&Remove grant"), this))
    , m_toolView(
          makeReadOnlyTable(this, QStringLiteral("effectiveTools"), tr("Tools the agent will see")))
    , m_toolsTitle(new QLabel(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("grantsEditor"));
    m_table->setModel(m_model);
    m_toolView->setModel(m_tools);
    m_folder->setObjectName(QStringLiteral("folder"));
    m_folder->setAccessibleName(tr("Folder"));
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->setAccessibleName(tr("Preset"));
    m_preset->addItem(tr("Choose a preset\u2026"));
    for (const Preset &preset : presets)
        m_preset->addItem(tr(preset.label));
    const auto named = [](QWidget *widget, const char *name, const QString &accessible) {
        widget->setObjectName(QString::fromLatin1(name));
        widget->setAccessibleName(accessible);
    };
    named(m_principal, "principal", tr("Principal"));
    named(m_action, "action", tr("Action"));
    named(m_scope, "scope", tr("Scope"));
    named(m_effect, "effect", tr("Effect"));
    named(m_params, "params", tr("Params"));
    named(m_confirmBroad, "confirmBroad", tr("Confirm a broad grant"));
    named(m_grantOption, "grantOption", tr("May delegate"));
    m_principal->setPlaceholderText(tr("corp/eng, role:member, corp/*"));
    m_action->setPlaceholderText(tr("mcp:send_file, mcp:*, egress, interact, admin, *"));
    m_scope->setPlaceholderText(tr("corp (exactly), corp/* (children), corp/** (subtree), **"));
    m_params->setPlaceholderText(tr("optional: jid=telegram:*"));
    m_effect->addItem(tr("Allow"), int(policy::Effect::Allow));
    m_effect->addItem(tr("Deny"), int(policy::Effect::Deny));
    m_add->setObjectName(QStringLiteral("add"));
    m_remove->setObjectName(QStringLiteral("remove"));
    m_remove->setEnabled(false);
    for (QLabel *label : {m_validation, m_status, m_toolsTitle}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
    }
    m_validation->setObjectName(QStringLiteral("validation"));
    m_status->setObjectName(QStringLiteral("status"));
    m_toolsTitle->setObjectName(QStringLiteral("toolsTitle"));
    m_confirmBroad->setVisible(false);

    auto *form = new QFormLayout;
    form->addRow(tr("&Preset:"), m_preset);
    form->addRow(tr("P&rincipal:"), m_principal);
    form->addRow(tr("A&ction:"), m_action);
    form->addRow(tr("&Scope:"), m_scope);
    form->addRow(tr("&Effect:"), m_effect);
    form->addRow(tr("Para&ms:"), m_params);
    form->addRow(m_grantOption);
    form->addRow(m_validation);
    form->addRow(m_confirmBroad);
    auto *buttonsRow = new QHBoxLayout;
    buttonsRow->addWidget(m_add);
    buttonsRow->addWidget(m_remove);
    buttonsRow->addStretch();
    form->addRow(buttonsRow);
    auto *formBox = new QGroupBox(tr("New grant"), this);
    formBox->setLayout(form);

    auto *top = new QFormLayout;
    top->addRow(tr("&Folder:"), m_folder);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 2);
    layout->addWidget(formBox);
    layout->addWidget(m_toolsTitle);
    layout->addWidget(m_toolView, 2);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(900, 760);

    connect(m_folder, &QComboBox::currentIndexChanged, this, &GrantsEditor::selectFolder);
    connect(m_preset, &QComboBox::activated, this, &GrantsEditor::applyPreset);
    for (QLineEdit *edit : {m_principal, m_action, m_scope, m_params})
        connect(edit, &QLineEdit::textChanged, this, &GrantsEditor::validate);
    connect(m_effect, &QComboBox::currentIndexChanged, this, &GrantsEditor::validate);
    connect(m_confirmBroad, &QCheckBox::toggled, this, &GrantsEditor::validate);
    connect(m_add, &QPushButton::clicked, this, &GrantsEditor::addGrant);
    connect(m_remove, &QPushButton::clicked, this, &GrantsEditor::removeGrant);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_remove->setEnabled(m_table->currentIndex().isValid()); });
    // The preview follows the grants as read, so it never shows tools of
    // rows the table does not.
    connect(m_model, &models::GrantModel::reloaded, this, [this] {
        m_tools->setFolder(m_model->folder());
        m_table->resizeColumnsToContents();
    });
    connect(m_tools, &models::EffectiveToolModel::reloaded, m_toolView,
            &QTableView::resizeColumnsToContents);
    const auto showError = [this](const Error &error) {
        setStatus(printable(error.message, 400), true);
    };
    connect(m_model, &models::GrantModel::failed, this, showError);
    connect(m_tools, &models::EffectiveToolModel::failed, this, showError);
    connect(&workspace, &engine::Workspace::grantsChanged, this, &GrantsEditor::reload);
    connect(&workspace, &engine::Workspace::foldersChanged, this,
            [this] { loadFolders(m_model->folder()); });
    // The grants show before the chooser is filled.
    m_model->setFolder(folder);
    loadFolders(folder);
}

GrantsEditor::~GrantsEditor() = default;

void GrantsEditor::loadFolders(const QString &select)
{
    fillFolderChooser(m_folder, m_workspace, tr("(every grant)"), select,
                      [this](const Result<void> &filled) {
                          if (!filled) {
                              setStatus(filled.error().message, true);
                              return;
                          }
                          selectFolder();
                      });
}

void GrantsEditor::selectFolder()
{
    const QString folder = m_folder->currentData().toString();
    setWindowTitle(folder.isEmpty() ? tr("Grants") : tr("Grants of %1").arg(printable(folder)));
    m_toolsTitle->setText(folder.isEmpty()
                              ? tr("Choose a folder to see the tools its agent will see.")
                              : tr("Tools %1's agent will see in its next turn, and why:")
                                    .arg(printable(folder)));
    if (m_principal->text().isEmpty() || m_scope->text().isEmpty()) {
        m_principal->setText(folder);
        m_scope->setText(folder);
    }
    m_model->setFolder(folder);
    m_remove->setEnabled(false);
}

void GrantsEditor::reload()
{
    m_model->reload();
    m_remove->setEnabled(false);
}

void GrantsEditor::applyPreset(int index)
{
    if (index <= 0 || index > int(std::size(presets)))
        return;
    const Preset &preset = presets[index - 1];
    const QString folder = m_folder->currentData().toString();
    m_principal->setText(folder);
    m_action->setText(QString::fromLatin1(preset.action));
    m_scope->setText(folder + QString::fromLatin1(preset.scopeSuffix));
    m_effect->setCurrentIndex(m_effect->findData(int(preset.effect)));
    m_params->clear();
    m_action->setFocus();
}

policy::Grant GrantsEditor::typedGrant(QString *error) const
{
    policy::Grant grant;
    grant.principal = m_principal->text();
    grant.action = m_action->text();
    grant.scope = m_scope->text();
    grant.effect = policy::Effect(m_effect->currentData().toInt());
    grant.grantOption = m_grantOption->isChecked();
    const Result<policy::GrantParams> params = models::GrantModel::parseParams(m_params->text());
    if (params)
        grant.params = *params;
    else
        *error = params.error().message;
    return grant;
}

void GrantsEditor::validate()
{
    QString error;
    const policy::Grant grant = typedGrant(&error);
    if (error.isEmpty()) {
        if (const Result<void> valid = models::GrantModel::validate(grant); !valid)
            error = valid.error().message;
    }
    const QString broad = error.isEmpty() ? models::GrantModel::broadReason(grant) : QString();
    m_confirmBroad->setVisible(!broad.isEmpty());
    m_confirmBroad->setText(tr("I want this broad grant: %1").arg(printable(broad, 400)));
    if (broad.isEmpty() && m_confirmBroad->isChecked()) {
        const QSignalBlocker blocker(m_confirmBroad);
        m_confirmBroad->setChecked(false);
    }
    m_validation->setText(
        error.isEmpty() ? tr("Will add: %1 %2 %3 on %4")
                              .arg(policy::effectName(grant.effect), printable(grant.principal),
                                   printable(grant.action), printable(grant.scope))
                        : tr("Refused: %1").arg(printable(error, 400)));
    m_add->setEnabled(error.isEmpty() && (broad.isEmpty() || m_confirmBroad->isChecked()) &&
                      !m_adding);
}

void GrantsEditor::addGrant()
{
    if (m_adding)
        return;
    QString error;
    const policy::Grant grant = typedGrant(&error);
    if (!error.isEmpty()) {
        setStatus(tr("Not added: %1").arg(printable(error, 400)), true);
        return;
    }
    // The confirmation is the gate for broad rows, whatever enabled the button.
    if (!models::GrantModel::broadReason(grant).isEmpty() && !m_confirmBroad->isChecked()) {
        setStatus(tr("Not added: confirm the broad grant first."), true);
        return;
    }
    m_adding = true;
    m_add->setEnabled(false);
    m_model->add(grant, [this](const Result<policy::Grant> &added) {
        m_adding = false;
        if (!added) {
            setStatus(tr("Not added: %1").arg(printable(added.error().message, 400)), true);
            validate();
            return;
        }
        setStatus(tr("Added %1; the folder's next tool call is decided with it.")
                      .arg(printable(policy::describeGrant(*added), 400)),
                  false);
        m_confirmBroad->setChecked(false);
        validate();
    });
}

void GrantsEditor::removeGrant()
{
    const int row = m_table->currentIndex().row();
    const QString described =
        m_table->currentIndex().siblingAtColumn(0).data(Qt::ToolTipRole).toString();
    m_remove->setEnabled(false);
    m_model->removeGrant(row, [this, described](const Result<void> &removed) {
        if (!removed) {
            setStatus(printable(removed.error().message, 400), true);
            m_remove->setEnabled(m_table->currentIndex().isValid());
            return;
        }
        setStatus(tr("Removed %1.").arg(printable(described, 400)), false);
    });
}

void GrantsEditor::setStatus(const QString &text, bool error)
{
    m_status->setProperty("error", error);
    m_status->setText(text);
}

} // namespace arizuko::desktop
