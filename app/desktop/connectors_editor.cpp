#include "connectors_editor.h"

#include "editor_widgets.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "models/connector_list_model.h"
#include "models/connector_operation_model.h"
#include "models/network_rule_model.h"
#include "safe_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QTableView>
#include <QVBoxLayout>
#include <utility>

namespace arizuko::desktop {
namespace {

// The scrubbed answer is shown this far; the rest is the agent's to read.
constexpr qsizetype shownOutputChars = 8000;

// What the Try fields of an operation look like: fields made for the same
// spec are kept as they are, with what was typed and where the cursor is.
QStringList fieldSpec(const connectors::Operation *operation)
{
    if (!operation || !operation->isRead())
        return {};
    QStringList spec{operation->tool};
    for (const connectors::Parameter &parameter : operation->parameters)
        spec << parameter.name << QString::number(parameter.required) << parameter.description;
    return spec;
}

} // namespace

ConnectorsEditor::ConnectorsEditor(engine::Workspace &workspace, engine::Engine &engine,
                                   const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_engine(engine)
    , m_connectors(new models::ConnectorListModel(this))
    , m_operations(new models::ConnectorOperationModel(this))
    , m_folder(new QComboBox(this))
    , m_connectorView(makeReadOnlyTable(this, QStringLiteral("connectors"), tr("Connectors")))
    , m_errors(new QLabel(this))
    , m_secret(new QLabel(this))
    , m_setSecret(new QPushButton(tr("Set &secret\u2026"), this))
    , m_operationsTitle(new QLabel(this))
    , m_operationView(
          makeReadOnlyTable(this, QStringLiteral("operations"), tr("The connector's operations")))
    , m_tryBox(new QGroupBox(tr("Try a read operation"), this))
    , m_parameters(new QFormLayout)
    , m_try(new QPushButton(tr("&Try"), this))
    , m_tryStatus(new QLabel(this))
    , m_tryOutput(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("connectorsEditor"));
    setWindowTitle(tr("Connectors"));
    m_connectorView->setModel(m_connectors);
    m_operationView->setModel(m_operations);
    m_folder->setObjectName(QStringLiteral("folder"));
    m_folder->setAccessibleName(tr("Folder"));
    for (QLabel *label : {m_errors, m_secret, m_operationsTitle, m_tryStatus, m_status}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
    }
    m_errors->setObjectName(QStringLiteral("definitionErrors"));
    m_errors->setProperty("error", true);
    m_errors->setVisible(false);
    m_secret->setObjectName(QStringLiteral("secretState"));
    m_setSecret->setObjectName(QStringLiteral("setSecret"));
    m_setSecret->setEnabled(false);
    m_operationsTitle->setObjectName(QStringLiteral("operationsTitle"));
    m_tryBox->setObjectName(QStringLiteral("tryBox"));
    m_try->setObjectName(QStringLiteral("try"));
    m_try->setEnabled(false);
    m_tryStatus->setObjectName(QStringLiteral("tryStatus"));
    m_tryOutput->setObjectName(QStringLiteral("tryOutput"));
    m_tryOutput->setAccessibleName(tr("The answer, with the secret scrubbed"));
    m_tryOutput->setReadOnly(true);
    m_tryOutput->setMaximumBlockCount(400);
    m_status->setObjectName(QStringLiteral("status"));

    auto *reloadButton = new QPushButton(tr("Re&load definitions"), this);
    reloadButton->setObjectName(QStringLiteral("reload"));
    auto *top = new QHBoxLayout;
    auto *folderLabel = new QLabel(tr("&Folder:"), this);
    folderLabel->setBuddy(m_folder);
    top->addWidget(folderLabel);
    top->addWidget(m_folder, 1);
    top->addWidget(reloadButton);
    auto *secretRow = new QHBoxLayout;
    secretRow->addWidget(m_secret, 1);
    secretRow->addWidget(m_setSecret);
    auto *tryRow = new QHBoxLayout;
    tryRow->addWidget(m_try);
    tryRow->addWidget(m_tryStatus, 1);
    auto *tryLayout = new QVBoxLayout(m_tryBox);
    tryLayout->addLayout(m_parameters);
    tryLayout->addLayout(tryRow);
    tryLayout->addWidget(m_tryOutput);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_connectorView, 2);
    layout->addWidget(m_errors);
    layout->addLayout(secretRow);
    layout->addWidget(m_operationsTitle);
    layout->addWidget(m_operationView, 3);
    layout->addWidget(m_tryBox, 2);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(1000, 820);
    // Tab follows the page from top to bottom; an operation's fields, made
    // later, go in before Try (showFields).
    m_tabAfterFields = {m_try, m_tryOutput, buttons->button(QDialogButtonBox::Close)};
    setTabChain(
        QList<QWidget *>{m_folder, reloadButton, m_connectorView, m_setSecret, m_operationView} +
        m_tabAfterFields);

    connect(m_folder, &QComboBox::currentIndexChanged, this, &ConnectorsEditor::reload);
    connect(reloadButton, &QPushButton::clicked, this, &ConnectorsEditor::reload);
    connect(m_connectorView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ConnectorsEditor::selectConnector);
    connect(m_operationView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ConnectorsEditor::selectOperation);
    connect(m_try, &QPushButton::clicked, this, &ConnectorsEditor::tryOperation);
    connect(&m_engine, &engine::Engine::connectorTried, this, &ConnectorsEditor::showTried);
    connect(m_setSecret, &QPushButton::clicked, this, [this] {
        const QString missing = m_connectorView->currentIndex()
                                    .data(models::ConnectorListModel::MissingSecretRole)
                                    .toString();
        emit secretsEditorRequested(currentFolder(), missing);
    });
    // A grant or a secret changed anywhere (here, or by arizukoctl): the
    // reasons and the "set?" column are read again.
    connect(&workspace, &engine::Workspace::grantsChanged, this, &ConnectorsEditor::reload);
    connect(&workspace, &engine::Workspace::secretsChanged, this, &ConnectorsEditor::reload);
    connect(&workspace, &engine::Workspace::foldersChanged, this,
            [this] { loadFolders(currentFolder()); });
    loadFolders(folder);
}

QString ConnectorsEditor::currentFolder() const
{
    return m_folder->currentData().toString();
}

QString ConnectorsEditor::currentService() const
{
    return m_connectorView->currentIndex().data(models::ConnectorListModel::ServiceRole).toString();
}

void ConnectorsEditor::loadFolders(const QString &select)
{
    fillFolderChooser(m_folder, m_workspace, tr("Choose a folder\u2026"), select,
                      [this](const Result<void> &filled) {
                          m_foldersProblem = filled
                                                 ? QString()
                                                 : tr("The folders cannot be read: %1")
                                                       .arg(printable(filled.error().message, 400));
                          m_foldersShown = true;
                          reload();
                      });
}

void ConnectorsEditor::reload()
{
    if (!m_foldersShown)
        return;
    if (m_loading) {
        m_reloadPending = true;
        return;
    }
    m_loading = true;
    m_status->setText(tr("Reading the connectors\u2026"));
    m_workspace.gatherConnectors(
        currentFolder(), this,
        [this](const models::ConnectorOverview &overview) { showOverview(overview); });
}

void ConnectorsEditor::showOverview(const models::ConnectorOverview &overview)
{
    m_loading = false;
    // Read before a change it does not show (a folder chosen, a grant or a
    // secret changed meanwhile): read again instead.
    if (std::exchange(m_reloadPending, false) || overview.folder != currentFolder()) {
        reload();
        return;
    }
    m_overview = overview;
    // The selection survives the reset by name. The fields follow the
    // operation it ends on, not each step there, so the same operation keeps
    // what was typed into them.
    const QString service = currentService();
    const QString tool =
        m_operationView->currentIndex().data(models::ConnectorOperationModel::ToolRole).toString();
    {
        const QScopedValueRollback restoring(m_restoringSelection, true);
        m_connectors->setOverview(m_overview);
        m_connectorView->resizeColumnsToContents();
        const int row = m_connectors->rowOf(service);
        m_connectorView->selectRow(row < 0 ? 0 : row);
        selectConnector();
        if (const int operation = m_operations->rowOf(tool); operation >= 0)
            m_operationView->selectRow(operation);
    }
    selectOperation();
    QStringList errors;
    for (const QString &error : std::as_const(m_overview.errors))
        errors << printable(error, 400);
    m_errors->setText(tr("Definition files left out (the others are in use):\n%1")
                          .arg(errors.join(QLatin1Char('\n'))));
    m_errors->setVisible(!errors.isEmpty());
    QStringList problems{m_foldersProblem};
    if (!m_overview.problem.isEmpty())
        problems << tr("Partly shown: %1").arg(printable(m_overview.problem, 400));
    problems.removeAll(QString());
    m_status->setText(problems.join(QLatin1Char('\n')));
    emit loaded();
}

void ConnectorsEditor::selectConnector()
{
    const QString service = currentService();
    const QString folder = currentFolder();
    m_operations->show(m_overview, service);
    m_operationView->resizeColumnsToContents();
    const QModelIndex current = m_connectorView->currentIndex();
    const QString missing = current.data(models::ConnectorListModel::MissingSecretRole).toString();
    if (service.isEmpty())
        m_secret->clear();
    else if (folder.isEmpty())
        m_secret->setText(tr("Choose a folder to see whether its secrets are set."));
    else
        m_secret->setText(
            tr("Secrets for %1: %2")
                .arg(printable(folder),
                     current.siblingAtColumn(models::ConnectorListModel::SecretSetColumn)
                         .data()
                         .toString()));
    m_setSecret->setEnabled(!missing.isEmpty());
    m_operationsTitle->setText(
        folder.isEmpty()
            ? tr("Operations of %1; choose a folder to see which its agent will see.")
                  .arg(printable(service))
            : tr("Operations of %1, and whether %2's agent will see each in its next turn, and "
                 "why:")
                  .arg(printable(service), printable(folder)));
    selectOperation();
}

void ConnectorsEditor::selectOperation()
{
    if (m_restoringSelection)
        return;
    const connectors::Operation *operation =
        m_operations->operation(m_operationView->currentIndex().row());
    const bool readable = operation && operation->isRead();
    // A Try in flight keeps its line until its answer replaces it.
    if (m_trying.isEmpty()) {
        m_tryStatus->setProperty("error", false);
        m_tryStatus->setText(tryHint(operation));
    }
    if (QStringList spec = fieldSpec(operation); spec != m_fieldSpec) {
        m_fieldSpec = std::move(spec);
        showFields(readable ? operation : nullptr);
    }
    m_try->setEnabled(readable && !currentFolder().isEmpty() && m_trying.isEmpty());
}

void ConnectorsEditor::showFields(const connectors::Operation *operation)
{
    while (m_parameters->rowCount() > 0)
        m_parameters->removeRow(0);
    m_values.clear();
    if (!operation)
        return;
    // Each label is its field's buddy (QFormLayout sets it), so a screen
    // reader names the field; no mnemonic, as the names come from the
    // definition and would take the dialog's letters. A new field joins the
    // tab chain at its end, behind the button box, which passes focus on to
    // Close: the fields are moved to follow the operations instead, and Try
    // and the rest follow them.
    for (const connectors::Parameter &parameter : operation->parameters) {
        auto *value = new QLineEdit(m_tryBox);
        value->setObjectName(QStringLiteral("param-") + parameter.name);
        value->setAccessibleName(parameter.name);
        value->setPlaceholderText(parameter.required
                                      ? parameter.description
                                      : tr("optional: %1").arg(parameter.description));
        value->setProperty("parameter", parameter.name);
        connect(value, &QLineEdit::returnPressed, this, &ConnectorsEditor::tryOperation);
        m_parameters->addRow(parameter.required ? tr("%1 (required):").arg(parameter.name)
                                                : QStringLiteral("%1:").arg(parameter.name),
                             value);
        m_values << value;
    }
    setTabChain(QList<QWidget *>{m_operationView} +
                QList<QWidget *>(m_values.cbegin(), m_values.cend()) + m_tabAfterFields);
}

void ConnectorsEditor::setTabChain(const QList<QWidget *> &widgets)
{
    for (qsizetype i = 1; i < widgets.size(); ++i)
        setTabOrder(widgets.at(i - 1), widgets.at(i));
}

QString ConnectorsEditor::tryHint(const connectors::Operation *operation) const
{
    if (!operation)
        return tr("Choose an operation to try.");
    if (!operation->isRead())
        return tr("Only a read (GET) operation can be tried here: %1 would change the service.")
            .arg(QString::fromLatin1(operation->method));
    if (currentFolder().isEmpty())
        return tr("Choose the folder whose secret the call uses.");
    return tr("The host makes the call with %1's secret, as you: the grants are not asked.")
        .arg(printable(currentFolder()));
}

void ConnectorsEditor::tryOperation()
{
    const connectors::Operation *operation =
        m_operations->operation(m_operationView->currentIndex().row());
    if (!operation || !operation->isRead() || currentFolder().isEmpty() || !m_trying.isEmpty())
        return;
    QJsonObject arguments;
    for (const QLineEdit *value : std::as_const(m_values)) {
        if (!value->text().isEmpty())
            arguments.insert(value->property("parameter").toString(), value->text());
    }
    m_trying = operation->tool;
    m_try->setEnabled(false);
    m_tryOutput->clear();
    m_tryStatus->setProperty("error", false);
    m_tryStatus->setText(
        tr("Calling %1 %2\u2026").arg(QString::fromLatin1(operation->method), operation->path));
    m_engine.tryConnector(currentFolder(), operation->tool, arguments);
}

void ConnectorsEditor::showTried(const QString &, const QString &tool, const QString &text,
                                 bool isError)
{
    if (tool != m_trying)
        return;
    m_trying.clear();
    // The first line is the request and its status ("GET /x → HTTP 200"),
    // or the sentence that says why no call was made.
    const qsizetype newline = text.indexOf(QLatin1Char('\n'));
    m_tryStatus->setProperty("error", isError);
    m_tryStatus->setText(printable(newline < 0 ? text : text.left(newline), 600));
    m_tryOutput->setPlainText(newline < 0 ? QString()
                                          : text.mid(newline + 1).left(shownOutputChars));
    const connectors::Operation *operation =
        m_operations->operation(m_operationView->currentIndex().row());
    m_try->setEnabled(operation && operation->isRead() && !currentFolder().isEmpty());
    emit tried();
}

} // namespace arizuko::desktop
