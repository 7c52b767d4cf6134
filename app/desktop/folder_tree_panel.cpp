#include "folder_tree_panel.h"

#include "engine/workspace.h"
#include "folders/folder_names.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "models/folder_topic_model.h"

#include <QAction>
#include <QApplication>
#include <QFont>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPalette>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <type_traits>

namespace arizuko::desktop {
namespace {

using models::FolderTopicModel;

const QString folderMimeType = QStringLiteral("application/x-arizuko-folder");

// Marks busy rows: a bullet and bold text, with the state in the tooltip
// and the accessible text, so the mark is not colour alone. Folders drag,
// and drop onto a folder or the empty space below the tree (the top);
// the drop is handed to the panel, which asks before anything moves.
class ActivityProxy final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    std::function<void(const QString &from, const QString &parent)> onFolderDropped;

    QVariant data(const QModelIndex &index, int role) const override
    {
        const QString activity =
            QSortFilterProxyModel::data(index, FolderTopicModel::ActivityRole).toString();
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

    Qt::ItemFlags flags(const QModelIndex &index) const override
    {
        const Qt::ItemFlags flags = QSortFilterProxyModel::flags(index);
        if (!index.isValid())
            return flags | Qt::ItemIsDropEnabled;
        if (index.data(FolderTopicModel::TopicRole).toString().isEmpty())
            return flags | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
        return flags;
    }
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override { return {folderMimeType}; }

    QMimeData *mimeData(const QModelIndexList &indexes) const override
    {
        if (indexes.isEmpty() ||
            !indexes.first().data(FolderTopicModel::TopicRole).toString().isEmpty())
            return nullptr;
        auto *data = new QMimeData;
        data->setData(folderMimeType,
                      indexes.first().data(FolderTopicModel::FolderRole).toString().toUtf8());
        return data;
    }

    bool canDropMimeData(const QMimeData *data, Qt::DropAction, int, int,
                         const QModelIndex &parent) const override
    {
        return data && data->hasFormat(folderMimeType) &&
               (!parent.isValid() || parent.data(FolderTopicModel::TopicRole).toString().isEmpty());
    }

    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                      const QModelIndex &parent) override
    {
        if (!canDropMimeData(data, action, row, column, parent) || !onFolderDropped)
            return false;
        onFolderDropped(QString::fromUtf8(data->data(folderMimeType)),
                        parent.data(FolderTopicModel::FolderRole).toString());
        // The panel moves it (or not) through the engine; the view itself
        // removes nothing.
        return false;
    }
};

} // namespace

FolderTreePanel::FolderTreePanel(engine::Workspace &workspace, models::FolderTopicModel *model,
                                 QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_model(model)
    , m_proxy(new ActivityProxy(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_addFolder(new QAction(tr("New &folder\u2026"), this))
    , m_addTopic(new QAction(tr("New &topic\u2026"), this))
    , m_rename(new QAction(tr("&Rename\u2026"), this))
    , m_move(new QAction(tr("Mo&ve folder\u2026"), this))
    , m_remove(new QAction(tr("Re&move\u2026"), this))
{
    m_proxy->setSourceModel(model);
    static_cast<ActivityProxy *>(m_proxy)->onFolderDropped = [this](const QString &from,
                                                                    const QString &parent) {
        // Out of the view's drop handling first: the confirmation is modal.
        QTimer::singleShot(0, this, [this, from, parent] { dropFolder(from, parent); });
    };
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
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->setDropIndicatorShown(true);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &FolderTreePanel::emitSelection);
    // A new row (another process added it) shows with its parents open.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent) { m_view->expand(parent); });

    m_addFolder->setObjectName(QStringLiteral("addFolder"));
    m_addFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_addTopic->setObjectName(QStringLiteral("addTopic"));
    m_addTopic->setShortcut(QKeySequence::New);
    m_rename->setObjectName(QStringLiteral("renameSelected"));
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_move->setObjectName(QStringLiteral("moveFolder"));
    m_remove->setObjectName(QStringLiteral("removeSelected"));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_addFolder, &QAction::triggered, this, &FolderTreePanel::addFolder);
    connect(m_addTopic, &QAction::triggered, this, &FolderTreePanel::addTopic);
    connect(m_rename, &QAction::triggered, this, &FolderTreePanel::renameSelected);
    connect(m_move, &QAction::triggered, this, &FolderTreePanel::moveFolder);
    connect(m_remove, &QAction::triggered, this, &FolderTreePanel::removeSelected);
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
    return {m_addFolder, m_addTopic, m_rename, m_move, m_remove};
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
    const bool folder = !currentFolder().isEmpty();
    const bool topic = !currentTopic().isEmpty();
    m_rename->setEnabled(folder);
    m_move->setEnabled(folder && !topic);
    m_remove->setEnabled(folder);
    emit selectionChanged(currentFolder(), currentTopic());
}

template<typename T, typename Where>
std::function<void(Result<T>)> FolderTreePanel::thenSelect(Where where)
{
    return [this, where = std::move(where)](const Result<T> &result) {
        if (!result) {
            emit failed(result.error().message);
            return;
        }
        TreePlace place;
        if constexpr (std::is_void_v<T>)
            place = where();
        else
            place = where(*result);
        reload([this, place] {
            select(place.folder, place.topic);
            emit changed();
        });
    };
}

void FolderTreePanel::addFolder()
{
    const QString parent = currentFolder();
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("New folder"),
        parent.isEmpty() ? tr("Folder path (a/b/c):")
                         : tr("Folder path (inside %1 by default):").arg(parent),
        QLineEdit::Normal, parent.isEmpty() ? QString() : parent + QLatin1Char('/'), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    m_workspace.addFolder(name.trimmed(), this,
                          thenSelect<folders::Folder>([](const folders::Folder &added) {
                              return TreePlace{added.path, {}};
                          }));
}

void FolderTreePanel::addTopic()
{
    const QString folder = currentFolder();
    if (folder.isEmpty()) {
        emit failed(tr("Select a folder for the new topic first."));
        return;
    }
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("New topic"), tr("Topic name in %1:").arg(folder),
                              QLineEdit::Normal, QString(), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    m_workspace.addTopic(folder, name.trimmed(), this,
                         thenSelect<folders::Topic>([](const folders::Topic &added) {
                             return TreePlace{added.folder, added.name};
                         }));
}

bool FolderTreePanel::confirm(const QString &objectName, const QString &title, const QString &text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Yes | QMessageBox::Cancel,
                    this);
    box.setObjectName(objectName);
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Yes;
}

std::optional<QString> FolderTreePanel::askText(const QString &objectName, const QString &title,
                                                const QString &label, const QString &text)
{
    QInputDialog dialog(this);
    dialog.setObjectName(objectName);
    dialog.setWindowTitle(title);
    dialog.setLabelText(label);
    dialog.setTextValue(text);
    if (dialog.exec() != QDialog::Accepted || dialog.textValue().trimmed().isEmpty())
        return std::nullopt;
    return dialog.textValue().trimmed();
}

void FolderTreePanel::renameSelected()
{
    const QString folder = currentFolder();
    const QString topic = currentTopic();
    if (folder.isEmpty())
        return;
    if (topic.isEmpty()) {
        // A folder keeps its parent; its last segment is renamed.
        const QString parent = folders::parentFolder(folder);
        const QString name = folder.mid(parent.isEmpty() ? 0 : parent.size() + 1);
        const auto renamed = askText(QStringLiteral("renameFolderDialog"), tr("Rename folder"),
                                     tr("New name for %1:").arg(folder), name);
        if (!renamed || *renamed == name)
            return;
        confirmMove(folder, parent.isEmpty() ? *renamed : parent + QLatin1Char('/') + *renamed);
        return;
    }
    const auto name = askText(QStringLiteral("renameTopicDialog"), tr("Rename topic"),
                              tr("New name for %1:").arg(topic), topic);
    if (!name || *name == topic)
        return;
    m_workspace.renameTopic(folder, topic, *name, this,
                            thenSelect<folders::Topic>([](const folders::Topic &renamed) {
                                return TreePlace{renamed.folder, renamed.name};
                            }));
}

void FolderTreePanel::moveFolder()
{
    const QString folder = currentFolder();
    if (folder.isEmpty() || !currentTopic().isEmpty())
        return;
    const auto to = askText(QStringLiteral("moveFolderDialog"), tr("Move folder"),
                            tr("New path for %1 and its subfolders (a/b/c):").arg(folder), folder);
    if (to && *to != folder)
        confirmMove(folder, *to);
}

void FolderTreePanel::dropFolder(const QString &from, const QString &parent)
{
    const QString name = from.section(QLatin1Char('/'), -1);
    const QString to = parent.isEmpty() ? name : parent + QLatin1Char('/') + name;
    if (to != from)
        confirmMove(from, to);
}

void FolderTreePanel::confirmMove(const QString &from, const QString &to)
{
    // What moves, as the tree shows it (the move itself checks the store).
    QStringList moving;
    qsizetype topicCount = 0;
    QList<QModelIndex> pending{m_model->folderIndex(from)};
    while (!pending.isEmpty()) {
        const QModelIndex index = pending.takeFirst();
        if (!index.isValid())
            continue;
        if (!index.data(FolderTopicModel::TopicRole).toString().isEmpty()) {
            ++topicCount;
            continue;
        }
        moving << index.data(FolderTopicModel::FolderRole).toString();
        for (int row = 0; row < m_model->rowCount(index); ++row)
            pending << m_model->index(row, 0, index);
    }
    if (moving.isEmpty())
        return; // gone from the tree meanwhile
    std::sort(moving.begin(), moving.end());
    QStringList lines;
    for (const QString &folder : std::as_const(moving))
        lines << QStringLiteral("%1 \u2192 %2").arg(folder, to + folder.mid(from.size()));
    if (!confirm(QStringLiteral("moveFolderConfirmation"), tr("Move folder"),
                 tr("Move \"%1\" to \"%2\"?\n\nThese folders move, with %n topic(s), their turns, "
                    "network rules, grants, routes, secrets and home directories:\n\n%3",
                    nullptr, int(topicCount))
                     .arg(from, to, lines.join(QLatin1Char('\n')))))
        return;
    m_workspace.moveFolder(from, to, this, thenSelect<QStringList>([to](const QStringList &) {
                               return TreePlace{to, {}};
                           }));
}

void FolderTreePanel::removeSelected()
{
    if (currentTopic().isEmpty())
        removeFolder();
    else
        removeTopic();
}

void FolderTreePanel::removeTopic()
{
    const QString folder = currentFolder();
    const QString topic = currentTopic();
    if (!confirm(
            QStringLiteral("removeTopicConfirmation"), tr("Remove topic"),
            tr("Remove the topic \"%1\" of \"%2\" with its messages, its turns and their "
               "transcripts?\n\nThe files the agent left in the folder's home stay. This cannot "
               "be undone.")
                .arg(topic, folder)))
        return;
    m_workspace.removeTopic(folder, topic, this, thenSelect<void>([folder] {
                                return TreePlace{folder, {}};
                            }));
}

void FolderTreePanel::reload(std::function<void()> then)
{
    // A store that cannot be read now leaves the tree as it was.
    m_model->reload(std::move(then));
}

void FolderTreePanel::removeFolder()
{
    const QString folder = currentFolder();
    if (folder.isEmpty() || !currentTopic().isEmpty())
        return;
    if (!confirm(QStringLiteral("removeFolderConfirmation"), tr("Remove folder"),
                 tr("Remove the folder \"%1\", its subfolders, topics, network rules, folder "
                    "secrets and "
                    "its home directory with every file in it?\n\nThis cannot be undone.")
                     .arg(folder)))
        return;
    // Deleting a home full of files takes as long as the files make it.
    m_workspace.removeFolder(folder, this, thenSelect<QStringList>([folder](const QStringList &) {
                                 return TreePlace{folders::parentFolder(folder), {}};
                             }));
}

} // namespace arizuko::desktop
