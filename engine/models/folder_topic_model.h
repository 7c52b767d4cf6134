#pragma once

// The folder tree with each folder's topics under its subfolders, and per
// topic whether a turn is running or queued in it. reload() reads the store
// on a worker (read()) and then, on the model's thread, changes only the
// rows that differ (apply()), so a view keeps its selection and expanded
// branches while other processes write, and its thread never waits for
// SQLite.

#include "core/result.h"

#include <QAbstractItemModel>
#include <functional>
#include <memory>
#include <vector>

namespace arizuko::store {
class Store;
}

namespace arizuko::models {

class FolderTopicModel final : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum class Kind { Folder, Topic };
    enum DataRole {
        KindRole = Qt::UserRole,
        FolderRole,   // the folder's path, or the topic's folder
        TopicRole,    // empty for a folder
        ActivityRole, // "running", "queued" or empty (topics; folders: any of theirs)
    };

    explicit FolderTopicModel(store::Store &store, QObject *parent = nullptr);
    ~FolderTopicModel() override;

    struct Node;
    // The tree as stored now, sorted, for apply(); on any thread.
    static Result<std::shared_ptr<Node>> read(store::Store &store);
    // Makes the rows match `wanted` (taken apart meanwhile).
    void apply(const std::shared_ptr<Node> &wanted);
    // Reads the tree on a worker and shows it, then calls `then` (also when
    // the read failed: the rows then stay as they were, and failed() says
    // why). Asked while a read is on its way, it reads again after it.
    void reload(std::function<void()> then = {});

    QModelIndex folderIndex(const QString &folder) const;
    QModelIndex topicIndex(const QString &folder, const QString &topic) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    // After each read that was shown.
    void reloaded();
    void failed(const arizuko::Error &error);

private:
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node) const;
    // Makes `current`'s children match `wanted`'s, row by row.
    void sync(Node &current, Node &wanted, const QModelIndex &parentIndex);

    store::Store &m_store;
    std::unique_ptr<Node> m_root;
    bool m_reading = false;
    bool m_readAgain = false;
    // What waits for the next read to be shown.
    QList<std::function<void()>> m_afterRead;
};

} // namespace arizuko::models
