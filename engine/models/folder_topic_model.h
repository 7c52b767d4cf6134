#pragma once

// The folder tree with each folder's topics under its subfolders, and per
// topic whether a turn is running or queued in it. reload() reads the store
// again and changes only the rows that differ, so a view keeps its
// selection and expanded branches while other processes write.

#include "core/result.h"

#include <QAbstractItemModel>
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

    Result<void> reload();

    QModelIndex folderIndex(const QString &folder) const;
    QModelIndex topicIndex(const QString &folder, const QString &topic) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    struct Node;

private:
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node) const;
    // Makes `current`'s children match `wanted`'s, row by row.
    void sync(Node &current, Node &wanted, const QModelIndex &parentIndex);

    store::Store &m_store;
    std::unique_ptr<Node> m_root;
};

} // namespace arizuko::models
