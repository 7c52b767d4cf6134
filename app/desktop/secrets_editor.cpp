#include "secrets_editor.h"

#include "core/actors.h"
#include "editor_widgets.h"
#include "models/network_rule_model.h"
#include "models/secret_list_model.h"
#include "safe_text.h"
#include "store/store_watcher.h"
#include "store_task.h"

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

SecretsEditor::SecretsEditor(store::Store &store, store::StoreWatcher *watcher,
                             const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_model(new models::SecretListModel(this))
    , m_keyStore(new QLabel(tr("Opening the key store\u2026"), this))
    , m_table(makeReadOnlyTable(this, QStringLiteral("secrets"), tr("Secret names")))
    , m_folder(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_value(new QLineEdit(this))
    , m_validation(new QLabel(this))
    , m_set(new QPushButton(tr("&Set or replace"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
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
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_keyStore);
    layout->addWidget(m_table, 1);
    layout->addWidget(formBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(720, 520);

    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SecretsEditor::showOutcome);
    connect(m_name, &QLineEdit::textChanged, this, &SecretsEditor::validate);
    connect(m_value, &QLineEdit::textChanged, this, &SecretsEditor::validate);
    connect(m_set, &QPushButton::clicked, this, &SecretsEditor::setSecret);
    connect(m_remove, &QPushButton::clicked, this, &SecretsEditor::removeSecret);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_remove->setEnabled(m_table->currentIndex().isValid() && !isBusy());
    });
    // A secret set or removed by arizukoctl: re-read the names (after the
    // worker in flight, whose list may predate it).
    if (watcher)
        connect(watcher, &store::StoreWatcher::secretsChanged, this, [this] {
            if (isBusy())
                m_reloadPending = true;
            else
                run({});
        });
    loadFolders(folder);
    validate();
    run({});
}

void SecretsEditor::prepareFor(const QString &name)
{
    m_name->setText(name);
    m_value->setFocus();
}

void SecretsEditor::loadFolders(const QString &select)
{
    if (const Result<void> filled =
            fillFolderChooser(m_folder, m_store, tr("'' (every folder)"), select);
        !filled)
        m_status->setText(filled.error().message);
}

void SecretsEditor::run(Operation operation)
{
    if (m_watcher.isRunning())
        return;
    m_set->setEnabled(false);
    m_remove->setEnabled(false);
    m_watcher.setFuture(
        runOnStore(m_store, [operation = std::move(operation)](store::Store &store) {
            Outcome outcome;
            auto opened = secrets::SecretStore::open(store, actors::gui);
            if (!opened) {
                outcome.secrets = opened.error();
                return outcome;
            }
            outcome.keyStore = (*opened)->keyStoreDescription();
            if (operation) {
                const Result<QString> done = operation(**opened);
                if (done)
                    outcome.done = *done;
                else
                    outcome.refused = done.error().message;
            }
            outcome.secrets = (*opened)->list();
            return outcome;
        }));
}

void SecretsEditor::showOutcome()
{
    const Outcome outcome = m_watcher.result();
    if (std::exchange(m_reloadPending, false))
        QMetaObject::invokeMethod(this, [this] { run({}); }, Qt::QueuedConnection);
    if (!outcome.keyStore.isEmpty())
        m_keyStore->setText(tr("Master key: %1").arg(outcome.keyStore));
    if (outcome.secrets) {
        m_model->setSecrets(*outcome.secrets);
        m_table->resizeColumnsToContents();
    }
    else
        m_keyStore->setText(
            tr("The secrets cannot be opened: %1").arg(outcome.secrets.error().message));
    if (!outcome.refused.isEmpty())
        m_status->setText(tr("Not changed: %1").arg(printable(outcome.refused, 400)));
    else if (!outcome.done.isEmpty())
        m_status->setText(outcome.done);
    validate();
    m_remove->setEnabled(m_table->currentIndex().isValid());
    emit settled();
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
    m_set->setEnabled(valid && !m_value->text().isEmpty() && !isBusy());
}

void SecretsEditor::setSecret()
{
    const QString name = m_name->text();
    const QString folder = m_folder->currentData().toString();
    const QByteArray value = m_value->text().toUtf8();
    // Out of the widget at once: nothing in the window holds it after this.
    m_value->clear();
    run([name, folder, value](secrets::SecretStore &sealed) -> Result<QString> {
        if (const Result<void> stored = sealed.set({folder}, name, value); !stored)
            return stored.error();
        return tr("%1 set for %2.").arg(name, models::folderLabel(folder));
    });
}

void SecretsEditor::removeSecret()
{
    const QModelIndex current = m_table->currentIndex();
    const QString name = current.data(models::SecretListModel::NameRole).toString();
    const QString folder = current.data(models::SecretListModel::FolderRole).toString();
    run([name, folder](secrets::SecretStore &sealed) -> Result<QString> {
        if (const Result<void> removed = sealed.remove({folder}, name); !removed)
            return removed.error();
        return tr("%1 removed from %2.").arg(name, models::folderLabel(folder));
    });
}

} // namespace arizuko::desktop
