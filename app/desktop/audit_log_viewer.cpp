#include "audit_log_viewer.h"

#include "editor_widgets.h"
#include "engine/workspace.h"
#include "models/audit_log_model.h"
#include "printable_delegate.h"
#include "safe_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace arizuko::desktop {

AuditLogViewer::AuditLogViewer(engine::Workspace &workspace, const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_model(workspace.make<models::AuditLogModel>(this))
    , m_folder(new QComboBox(this))
    , m_kind(new QComboBox(this))
    , m_since(new QComboBox(this))
    , m_table(makeReadOnlyTable(this, QStringLiteral("entries"), tr("Audit log entries")))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("auditLogViewer"));
    setWindowTitle(tr("Audit log"));
    m_folder->setObjectName(QStringLiteral("folder"));
    m_folder->setAccessibleName(tr("Folder"));
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->setAccessibleName(tr("Kind"));
    m_kind->setEditable(true);
    m_kind->setInsertPolicy(QComboBox::NoInsert);
    // Prefixes: "network" also matches network.add and network.remove.
    m_kind->addItem(tr("(every kind)"), QString());
    for (const char *kind :
         {"network", "grant", "grant.decision", "secret", "route", "folder", "topic", "turn"})
        m_kind->addItem(QString::fromLatin1(kind), QString::fromLatin1(kind));
    m_since->setObjectName(QStringLiteral("since"));
    m_since->setAccessibleName(tr("Since"));
    addSinceChoices(m_since);
    m_table->setModel(m_model);
    m_table->setItemDelegate(new PrintableDelegate(m_table));
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextFormat(Qt::PlainText);

    QHBoxLayout *filters = labelledRow(
        this, {{tr("&Folder:"), m_folder}, {tr("&Kind:"), m_kind}, {tr("&Since:"), m_since}});
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(980, 560);

    connect(m_folder, &QComboBox::currentIndexChanged, this, &AuditLogViewer::applyFilter);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AuditLogViewer::applyFilter);
    connect(m_kind->lineEdit(), &QLineEdit::editingFinished, this, &AuditLogViewer::applyFilter);
    connect(m_since, &QComboBox::currentIndexChanged, this, &AuditLogViewer::applyFilter);
    connect(m_model, &models::AuditLogModel::reloaded, this, [this] {
        m_table->resizeColumnsToContents();
        showCount();
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        m_table->scrollToBottom();
        showCount();
    });
    connect(m_model, &models::AuditLogModel::failed, this,
            [this](const Error &error) { m_status->setText(printable(error.message, 400)); });
    // The log has no change counter: an indexed read of rows after the last
    // id seen, once a second, is what keeps the view live.
    m_poll.setInterval(pollIntervalMs);
    connect(&m_poll, &QTimer::timeout, m_model, &models::AuditLogModel::poll);
    m_poll.start();
    loadFolders(folder);
    // With a folder to show, the first read waits for the chooser to hold it.
    if (folder.isEmpty())
        applyFilter();
}

void AuditLogViewer::loadFolders(const QString &select)
{
    // The folder to select is there once the folders are read: the filter
    // follows it then.
    fillFolderChooser(m_folder, m_workspace, tr("(every subject)"), select,
                      [this, select](const Result<void> &filled) {
                          if (!filled)
                              m_status->setText(filled.error().message);
                          if (!select.isEmpty())
                              applyFilter();
                      });
}

void AuditLogViewer::applyFilter()
{
    audit::Query filter;
    // The kind typed or chosen; a chosen item carries its kind as data.
    const QString typed = m_kind->currentText();
    filter.kind = m_kind->currentIndex() >= 0 && m_kind->itemText(m_kind->currentIndex()) == typed
                      ? m_kind->currentData().toString()
                      : typed;
    filter.subject = m_folder->currentData().toString();
    const int seconds = m_since->currentData().toInt();
    if (seconds > 0)
        filter.since = models::AuditLogModel::since(seconds);
    m_model->setFilter(filter);
}

void AuditLogViewer::showCount()
{
    m_status->setText(
        tr("%n entries; new ones appear as they are written.", nullptr, m_model->rowCount()));
}

} // namespace arizuko::desktop
