#include "models/folder_topic_model.h"

#include "core/actors.h"
#include "core/run_on_worker.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "models/turn_list_model.h"
#include "store/store_work.h"
#include "turn_records/turn_records.h"

#include <QCollator>
#include <QHash>
#include <QLocale>
#include <algorithm>

namespace arizuko::models {
namespace {

// Names in the order people read them: f2 before f10, digits by their
// value, letters as the user's language sorts them; names the collator
// holds equal (f01, f1) keep a fixed order by their characters.
bool naturallyBefore(const QString &a, const QString &b)
{
    static thread_local const QCollator collator = [] {
        // Under the C locale Qt compares code points and ignores the
        // numeric mode: English's order then.
        const QLocale locale;
        QCollator natural(locale.language() == QLocale::C ? QLocale(QLocale::English) : locale);
        natural.setNumericMode(true);
        return natural;
    }();
    const int order = collator.compare(a, b);
    return order != 0 ? order < 0 : a < b;
}

// The stored activity ("running") in the user's language.
QString activityText(const QString &activity)
{
    const auto state = turns::turnStateFromName(activity);
    return state ? turnStateText(*state) : activity;
}

} // namespace

struct FolderTopicModel::Node
{
    Kind kind = Kind::Folder;
    QString folder;
    QString topic;
    QString activity;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    QString label() const
    {
        return kind == Kind::Topic ? topic : folder.section(QLatin1Char('/'), -1);
    }
    // Children sort subfolders first, then topics, each by name.
    bool before(const Node &other) const
    {
        if (kind != other.kind)
            return kind == Kind::Folder;
        return naturallyBefore(label(), other.label());
    }
    bool sameAs(const Node &other) const
    {
        return kind == other.kind && folder == other.folder && topic == other.topic;
    }
    int row() const
    {
        if (!parent)
            return 0;
        const auto &siblings = parent->children;
        const auto found = std::find_if(siblings.begin(), siblings.end(),
                                        [this](const auto &child) { return child.get() == this; });
        return int(found - siblings.begin());
    }
};

namespace {

using Node = FolderTopicModel::Node;

void sortTree(Node &node)
{
    std::sort(node.children.begin(), node.children.end(),
              [](const auto &a, const auto &b) { return a->before(*b); });
    for (const auto &child : node.children)
        sortTree(*child);
}

// A folder shows the busiest of its topics: running over queued.
QString busier(const QString &a, const QString &b)
{
    if (a == QLatin1String("running") || b == QLatin1String("running"))
        return QStringLiteral("running");
    return a.isEmpty() ? b : a;
}

} // namespace

FolderTopicModel::FolderTopicModel(store::Store &store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
    , m_root(std::make_unique<Node>())
{}

FolderTopicModel::~FolderTopicModel() = default;

void FolderTopicModel::reload(std::function<void()> then)
{
    if (then)
        m_afterRead << std::move(then);
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    m_reading = true;
    runOnWorker(
        this, [hold = store::StoreWork(m_store)] { return read(hold.store()); },
        [this,
         waiting = std::exchange(m_afterRead, {})](const Result<std::shared_ptr<Node>> &tree) {
            m_reading = false;
            if (tree) {
                apply(*tree);
                emit reloaded();
            } else {
                emit failed(tree.error());
            }
            for (const std::function<void()> &call : waiting)
                call();
            if (std::exchange(m_readAgain, false))
                reload();
        });
}

void FolderTopicModel::apply(const std::shared_ptr<Node> &wanted)
{
    sync(*m_root, *wanted, QModelIndex());
}

Result<std::shared_ptr<FolderTopicModel::Node>> FolderTopicModel::read(store::Store &store)
{
    const auto folders = folders::Folders(store, actors::gui).list();
    if (!folders)
        return folders.error();
    const auto topics = folders::Topics(store, actors::gui).list();
    if (!topics)
        return topics.error();
    turns::TurnRecords records(store);
    const auto live = records.live();
    if (!live)
        return live.error();

    QHash<QString, QString> activity; // folder \n topic -> running/queued
    for (const turns::TurnRecord &turn : *live) {
        const QString key = turn.folder + QLatin1Char('\n') + turn.topic;
        activity[key] = busier(activity.value(key), turn.state == turns::TurnState::Queued
                                                        ? QStringLiteral("queued")
                                                        : QStringLiteral("running"));
    }

    auto tree = std::make_shared<Node>();
    Node &wanted = *tree;
    QHash<QString, Node *> byPath;
    // Folders are listed parents first (a path sorts after its prefix).
    QList<folders::Folder> sorted = *folders;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto &a, const auto &b) { return a.path < b.path; });
    for (const folders::Folder &folder : sorted) {
        const QString parentPath = folder.path.section(QLatin1Char('/'), 0, -2);
        Node *parent = byPath.value(parentPath, &wanted);
        auto node = std::make_unique<Node>();
        node->folder = folder.path;
        node->parent = parent;
        byPath.insert(folder.path, node.get());
        parent->children.push_back(std::move(node));
    }
    for (const folders::Topic &topic : *topics) {
        Node *folder = byPath.value(topic.folder);
        if (!folder)
            continue;
        auto node = std::make_unique<Node>();
        node->kind = Kind::Topic;
        node->folder = topic.folder;
        node->topic = topic.name;
        node->activity = activity.value(topic.folder + QLatin1Char('\n') + topic.name);
        node->parent = folder;
        for (Node *up = folder; up && up != &wanted; up = up->parent)
            up->activity = busier(up->activity, node->activity);
        folder->children.push_back(std::move(node));
    }
    sortTree(wanted);
    return tree;
}

void FolderTopicModel::sync(Node &current, Node &wanted, const QModelIndex &parentIndex)
{
    auto &have = current.children;
    auto &want = wanted.children;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < have.size() || j < want.size()) {
        if (j >= want.size() || (i < have.size() && have[i]->before(*want[j]))) {
            beginRemoveRows(parentIndex, int(i), int(i));
            have.erase(have.begin() + std::ptrdiff_t(i));
            endRemoveRows();
            continue;
        }
        if (i >= have.size() || want[j]->before(*have[i]) || !have[i]->sameAs(*want[j])) {
            beginInsertRows(parentIndex, int(i), int(i));
            want[j]->parent = &current;
            have.insert(have.begin() + std::ptrdiff_t(i), std::move(want[j]));
            endInsertRows();
            ++i;
            ++j;
            continue;
        }
        Node &node = *have[i];
        const QModelIndex nodeIndex = index(int(i), 0, parentIndex);
        if (node.activity != want[j]->activity) {
            node.activity = want[j]->activity;
            emit dataChanged(nodeIndex, nodeIndex, {ActivityRole, Qt::DecorationRole,
                                                    Qt::ToolTipRole, Qt::DisplayRole});
        }
        sync(node, *want[j], nodeIndex);
        ++i;
        ++j;
    }
}

FolderTopicModel::Node *FolderTopicModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex FolderTopicModel::indexOf(const Node *node) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row(), 0, const_cast<Node *>(node));
}

QModelIndex FolderTopicModel::folderIndex(const QString &folder) const
{
    const Node *node = m_root.get();
    for (const QString &segment : folder.split(QLatin1Char('/'))) {
        const auto found =
            std::find_if(node->children.begin(), node->children.end(), [&](const auto &child) {
                return child->kind == Kind::Folder && child->label() == segment;
            });
        if (found == node->children.end())
            return {};
        node = found->get();
    }
    return indexOf(node);
}

QModelIndex FolderTopicModel::topicIndex(const QString &folder, const QString &topic) const
{
    const QModelIndex parentIndex = folderIndex(folder);
    if (!parentIndex.isValid())
        return {};
    for (const auto &child : nodeOf(parentIndex)->children) {
        if (child->kind == Kind::Topic && child->topic == topic)
            return indexOf(child.get());
    }
    return {};
}

QModelIndex FolderTopicModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeOf(parent)->children[std::size_t(row)].get());
}

QModelIndex FolderTopicModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int FolderTopicModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int FolderTopicModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant FolderTopicModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &node = *nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return node.label();
    case Qt::ToolTipRole:
        if (node.kind == Kind::Folder)
            return node.activity.isEmpty() ? tr("Folder %1").arg(node.folder)
                                           : tr("Folder %1 (a turn is %2)")
                                                 .arg(node.folder, activityText(node.activity));
        return node.activity.isEmpty()
                   ? tr("Topic %1 in %2").arg(node.topic, node.folder)
                   : tr("Topic %1 in %2 (a turn is %3)")
                         .arg(node.topic, node.folder, activityText(node.activity));
    case Qt::AccessibleTextRole:
        return node.kind == Kind::Folder ? tr("folder %1").arg(node.label())
                                         : tr("topic %1").arg(node.label());
    case KindRole:
        return int(node.kind);
    case FolderRole:
        return node.folder;
    case TopicRole:
        return node.topic;
    case ActivityRole:
        return node.activity;
    default:
        return {};
    }
}

QHash<int, QByteArray> FolderTopicModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(FolderRole, "folder");
    names.insert(TopicRole, "topic");
    names.insert(ActivityRole, "activity");
    return names;
}

} // namespace arizuko::models
