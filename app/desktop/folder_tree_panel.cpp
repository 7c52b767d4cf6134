#include "folder_tree_panel.h"

#include "models/folder_topic_model.h"
#include "folders/folders.h"
#include "folders/topics.h"

#include <QAction>
#include <QApplication>
#include <QFont>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPalette>
#include <QSortFilterProxyModel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

using models::FolderTopicModel;
const QString guiActor = QStringLiteral("user:gui");

// Marks busy rows: a bullet and bold text, with the state in the tooltip
// and the accessible text, so the mark is not colour alone.
class ActivityProxy final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        const QString activity = QSortFilterProxyModel::data(index, FolderTopicModel::ActivityRole).toString();
        const bool running = activity == QLatin1String("running");
        if (role == Qt::DisplayRole && !activity.isEmpty())
            return (running ? FolderTreePanel::tr("%1  \u25cf running")
                            : FolderTreePanel::tr("%1  \u25cb queued"))
                .arg(QSortFilterProxyModel::data(index, role).toString());
        if (role == Qt::FontRole && !activity.isEmpty()) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (role == Qt::AccessibleTextRole && !activity.isEmpty())
            return (running ? FolderTreePanel::tr("%1, running")
                            : FolderTreePanel::tr("%1, queued"))
                .arg(QSortFilterProxyModel::data(index, role).toString());
        return QSortFilterProxyModel::data(index, role);
    }
};

} // namespace

FolderTreePanel::FolderTreePanel(store::Store &store, models::FolderTopicModel *model, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_model(model)
    , m_proxy(new ActivityProxy(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_addFolder(new QAction(tr("New &folder\u2026"), this))
    , m_addTopic(new QAction(tr("New &topic\u2026"), this))
    , m_rename(new QAction(tr("&Rename topic\u2026"), this))
    , m_remove(new QAction(tr("Re&move folder\u2026"), this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setObjectName(QStringLiteral("treeFilter"));
    m_filter->setPlaceholderText(tr("Filter folders and topics"));
    m_filter->setAccessibleName(tr("Filter folders and topics"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text);
        if (!text.isEmpty())
            m_view->expandAll();
    });

    m_view->setObjectName(QStringLiteral("folderTree"));
    m_view->setAccessibleName(tr("Folders and topics"));
    m_view->setModel(m_proxy);
    m_view->header()->hide();
    m_view->setUniformRowHeights(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &FolderTreePanel::emitSelection);
    // A new row (another process added it) shows with its parents open.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent) { m_view->expand(parent); });

    m_addFolder->setObjectName(QStringLiteral("addFolder"));
    m_addFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_addTopic->setObjectName(QStringLiteral("addTopic"));
    m_addTopic->setShortcut(QKeySequence::New);
    m_rename->setObjectName(QStringLiteral("renameTopic"));
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_remove->setObjectName(QStringLiteral("removeFolder"));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_addFolder, &QAction::triggered, this, &FolderTreePanel::addFolder);
    connect(m_addTopic, &QAction::triggered, this, &FolderTreePanel::addTopic);
    connect(m_rename, &QAction::triggered, this, &FolderTreePanel::renameTopic);
    connect(m_remove, &QAction::triggered, this, &FolderTreePanel::removeFolder);
    for (QAction *action : editActions())
        m_view->addAction(action);

    auto *tools = new QToolBar(this);
    tools->setAccessibleName(tr("Folder actions"));
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tools->addAction(m_addFolder);
    tools->addAction(m_addTopic);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(tools);
    setTabOrder(m_filter, m_view);
}

QList<QAction *> FolderTreePanel::editActions() const
{
    return {m_addFolder, m_addTopic, m_rename, m_remove};
}

QString FolderTreePanel::currentFolder() const
{
    return m_view->currentIndex().data(FolderTopicModel::FolderRole).toString();
}

QString FolderTreePanel::currentTopic() const
{
    return m_view->currentIndex().data(FolderTopicModel::TopicRole).toString();
}

bool FolderTreePanel::select(const QString &folder, const QString &topic)
{
    const QModelIndex source = topic.isEmpty() ? m_model->folderIndex(folder)
                                               : m_model->topicIndex(folder, topic);
    const QModelIndex index = m_proxy->mapFromSource(source);
    if (!index.isValid())
        return false;
    m_view->scrollTo(index);
    m_view->setCurrentIndex(index);
    return true;
}

void FolderTreePanel::emitSelection()
{
    const bool topic = !currentTopic().isEmpty();
    m_rename->setEnabled(topic);
    m_remove->setEnabled(!topic && !currentFolder().isEmpty());
    emit selectionChanged(currentFolder(), currentTopic());
}

void FolderTreePanel::addFolder()
{
    const QString parent = currentFolder();
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("New folder"),
        parent.isEmpty() ? tr("Folder path (a/b/c):") : tr("Folder path (inside %1 by default):").arg(parent),
        QLineEdit::Normal, parent.isEmpty() ? QString() : parent + QLatin1Char('/'), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    const auto added = folders::Folders(m_store, guiActor).add(name.trimmed());
    if (!added) {
        emit failed(added.error().message);
        return;
    }
    (void)m_model->reload();
    select(added->path);
}

void FolderTreePanel::addTopic()
{
    const QString folder = currentFolder();
    if (folder.isEmpty()) {
        emit failed(tr("Select a folder for the new topic first."));
        return;
    }
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New topic"), tr("Topic name in %1:").arg(folder),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    const auto added = folders::Topics(m_store, guiActor).add(folder, name.trimmed());
    if (!added) {
        emit failed(added.error().message);
        return;
    }
    (void)m_model->reload();
    select(folder, added->name);
}

void FolderTreePanel::renameTopic()
{
    const QString folder = currentFolder();
    const QString topic = currentTopic();
    if (topic.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename topic"), tr("New name for %1:").arg(topic),
                                               QLineEdit::Normal, topic, &ok);
    if (!ok || name.trimmed().isEmpty() || name.trimmed() == topic)
        return;
    const auto renamed = folders::Topics(m_store, guiActor).rename(folder, topic, name.trimmed());
    if (!renamed) {
        emit failed(renamed.error().message);
        return;
    }
    (void)m_model->reload();
    select(folder, renamed->name);
}

void FolderTreePanel::removeFolder()
{
    const QString folder = currentFolder();
    if (folder.isEmpty() || !currentTopic().isEmpty())
        return;
    const auto answer = QMessageBox::warning(
        this, tr("Remove folder"),
        tr("Remove the folder \"%1\", its subfolders, topics, network rules, folder secrets and "
           "its home directory with every file in it?\n\nThis cannot be undone.")
            .arg(folder),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return;
    const auto removed = folders::Folders(m_store, guiActor).remove(folder, true);
    if (!removed)
        emit failed(removed.error().message);
    (void)m_model->reload();
}

} // namespace arizuko::desktop
