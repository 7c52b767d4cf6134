#include "secrets_editor.h"

#include "editor_widgets.h"
#include "models/network_rule_model.h"
#include "models/secret_list_model.h"
#include "safe_text.h"
#include "secret_binding_dialog.h"

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
#include <utility>

namespace arizuko::desktop {

SecretsEditor::SecretsEditor(engine::Workspace &workspace, const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_model(new models::SecretListModel(this))
    , m_keyStore(new QLabel(tr("Opening the key store\u2026"), this))
    , m_table(makeReadOnlyTable(this, QStringLiteral("secrets"), tr("Secret names")))
    , m_folder(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_value(new QLineEdit(this))
    , m_validation(new QLabel(this))
    , m_set(new QPushButton(tr("&Set or replace"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_bind(new QPushButton(tr("&Bind to hosts\u2026"), this))
    , m_unbind(new QPushButton(tr("&Unbind"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("secretsEditor"));
    setWindowTitle(tr("Secrets"));
    m_keyStore->setObjectName(QStringLiteral("keyStore"));
    m_keyStore->setAccessibleName(tr("Where the master key is"));
    m_table->setModel(m_model);
    m_folder->setObjectName(QStringLiteral("folder"));
    m_folder->setAccessibleName(tr("Applies to folder"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setAccessibleName(tr("Secret name"));
    m_name->setPlaceholderText(tr("GITHUB_TOKEN"));
    m_value->setObjectName(QStringLiteral("value"));
    m_value->setAccessibleName(tr("Secret value"));
    m_value->setEchoMode(QLineEdit::Password);
    m_value->setPlaceholderText(tr("the new value; it is never shown again"));
    m_set->setObjectName(QStringLiteral("set"));
    m_remove->setObjectName(QStringLiteral("remove"));
    m_remove->setEnabled(false);
    m_bind->setObjectName(QStringLiteral("bind"));
    m_bind->setEnabled(false);
    m_unbind->setObjectName(QStringLiteral("unbind"));
    m_unbind->setEnabled(false);
    for (QLabel *label : {m_keyStore, m_validation, m_status}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
    }
    m_validation->setObjectName(QStringLiteral("validation"));
    m_status->setObjectName(QStringLiteral("status"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Folder:"), m_folder);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Value:"), m_value);
    form->addRow(m_validation);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_set);
    buttonRow->addWidget(m_remove);
    buttonRow->addStretch();
    form->addRow(buttonRow);
    auto *formBox = new QGroupBox(tr("Set a secret"), this);
    formBox->setLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *rowButtons = new QHBoxLayout;
    rowButtons->addWidget(m_bind);
    rowButtons->addWidget(m_unbind);
    rowButtons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_keyStore);
    layout->addWidget(m_table, 1);
    layout->addLayout(rowButtons);
    layout->addWidget(formBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(860, 560);

    connect(m_name, &QLineEdit::textChanged, this, &SecretsEditor::validate);
    connect(m_value, &QLineEdit::textChanged, this, &SecretsEditor::validate);
    connect(m_set, &QPushButton::clicked, this, &SecretsEditor::setSecret);
    connect(m_remove, &QPushButton::clicked, this, &SecretsEditor::removeSecret);
    connect(m_bind, &QPushButton::clicked, this, &SecretsEditor::bindSecret);
    connect(m_unbind, &QPushButton::clicked, this, &SecretsEditor::unbindSecret);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SecretsEditor::updateRowButtons);
    // A secret set or removed by arizukoctl: re-read the names (after the
    // call in flight, whose list may predate it).
    connect(&workspace, &engine::Workspace::secretsChanged, this, &SecretsEditor::reload);
    fillFolderChooser(m_folder, workspace, tr("'' (every folder)"), folder,
                      [this](const Result<void> &filled) {
                          if (filled)
                              m_foldersShown = true;
                          else
                              m_status->setText(tr("The folders cannot be read: %1")
                                                    .arg(printable(filled.error().message, 400)));
                          validate();
                      });
    validate();
    reload();
}

void SecretsEditor::prepareFor(const QString &name)
{
    m_name->setText(name);
    m_value->setFocus();
}

bool SecretsEditor::startCall()
{
    if (m_busy)
        return false;
    m_busy = true;
    m_set->setEnabled(false);
    updateRowButtons();
    return true;
}

std::function<void(SecretsEditor::Names)> SecretsEditor::answer(const QString &done)
{
    return [this, done](const Names &names) { showNames(names, done); };
}

void SecretsEditor::reload()
{
    if (!startCall()) {
        m_reloadPending = true;
        return;
    }
    m_workspace.listSecrets(this, answer());
}

void SecretsEditor::showNames(const Names &names, const QString &done)
{
    m_busy = false;
    if (!names.keyStore.isEmpty())
        m_keyStore->setText(tr("Master key: %1").arg(names.keyStore));
    if (names.secrets) {
        // The secret chosen stays chosen when the list is read again.
        const QModelIndex chosen = m_table->currentIndex();
        const QString folder = chosen.data(models::SecretListModel::FolderRole).toString();
        const QString name = chosen.data(models::SecretListModel::NameRole).toString();
        m_model->setSecrets(*names.secrets,
                            names.bindings ? *names.bindings : QList<secrets::SecretBinding>{});
        for (int row = 0; chosen.isValid() && row < m_model->rowCount(); ++row) {
            const QModelIndex index = m_model->index(row, 0);
            if (index.data(models::SecretListModel::FolderRole).toString() == folder &&
                index.data(models::SecretListModel::NameRole).toString() == name)
                m_table->selectRow(row);
        }
        m_table->resizeColumnsToContents();
        if (!names.bindings)
            m_status->setText(tr("The bindings cannot be read: %1")
                                  .arg(printable(names.bindings.error().message, 400)));
    } else
        m_keyStore->setText(
            tr("The secrets cannot be opened: %1").arg(names.secrets.error().message));
    if (!names.change)
        m_status->setText(tr("Not changed: %1").arg(printable(names.change.error().message, 400)));
    else if (!done.isEmpty())
        m_status->setText(done);
    validate();
    updateRowButtons();
    emit settled();
    if (std::exchange(m_reloadPending, false))
        reload();
}

void SecretsEditor::validate()
{
    const QString name = m_name->text();
    if (name.isEmpty()) {
        m_validation->setText(tr("A name like an environment variable: GITHUB_TOKEN."));
        m_set->setEnabled(false);
        return;
    }
    const Result<void> valid = secrets::SecretStore::validateKey(name);
    m_validation->setText(
        valid ? tr("The value is sealed under the master key and never shown again.")
              : tr("Refused: %1").arg(printable(valid.error().message, 400)));
    m_set->setEnabled(valid && !m_value->text().isEmpty() && m_foldersShown && !isBusy());
}

void SecretsEditor::setSecret()
{
    if (!m_foldersShown || !startCall())
        return;
    const QString name = m_name->text();
    const QString folder = m_folder->currentData().toString();
    const QByteArray value = m_value->text().toUtf8();
    // Out of the widget at once: nothing in the window holds it after this.
    m_value->clear();
    m_workspace.setSecret(folder, name, value, this,
                          answer(tr("%1 set for %2.").arg(name, models::folderLabel(folder))));
}

void SecretsEditor::removeSecret()
{
    const QModelIndex current = m_table->currentIndex();
    const QString name = current.data(models::SecretListModel::NameRole).toString();
    const QString folder = current.data(models::SecretListModel::FolderRole).toString();
    if (!current.isValid() || !startCall())
        return;
    m_workspace.removeSecret(
        folder, name, this,
        answer(tr("%1 removed from %2.").arg(name, models::folderLabel(folder))));
}

void SecretsEditor::updateRowButtons()
{
    const QModelIndex current = m_table->currentIndex();
    const bool chosen = current.isValid() && !isBusy();
    m_remove->setEnabled(chosen);
    m_bind->setEnabled(chosen);
    m_unbind->setEnabled(chosen && current.data(models::SecretListModel::BoundRole).toBool());
}

void SecretsEditor::bindSecret()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid() || isBusy())
        return;
    const QString name = current.data(models::SecretListModel::NameRole).toString();
    const QString folder = current.data(models::SecretListModel::FolderRole).toString();
    auto *dialog = new SecretBindingDialog(name, models::folderLabel(folder),
                                           m_model->binding(current.row()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, name, folder] {
        const Result<secrets::SecretPlacement> placement = dialog->placement();
        if (!placement || !startCall())
            return;
        m_workspace.bindSecret(
            folder, name, dialog->hosts(), *placement, this,
            answer(tr("%1 of %2 bound.").arg(name, models::folderLabel(folder))));
    });
    dialog->open();
}

void SecretsEditor::unbindSecret()
{
    const QModelIndex current = m_table->currentIndex();
    const QString name = current.data(models::SecretListModel::NameRole).toString();
    const QString folder = current.data(models::SecretListModel::FolderRole).toString();
    if (!current.isValid() || !startCall())
        return;
    m_workspace.unbindSecret(folder, name, this,
                             answer(tr("%1 of %2 unbound: turns get no placeholder for it.")
                                        .arg(name, models::folderLabel(folder))));
}

} // namespace arizuko::desktop
