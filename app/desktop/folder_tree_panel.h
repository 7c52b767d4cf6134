#pragma once

// The folders and their topics as a tree, with a filter box and the
// actions on them: new folder, new topic, rename a topic, remove a folder
// (each confirmed or asked for by name). Running and queued topics are
// marked.

#include <QWidget>

class QAction;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace arizuko::store {
class Store;
}
namespace arizuko::models {
class FolderTopicModel;
}

namespace arizuko::desktop {

class FolderTreePanel final : public QWidget
{
    Q_OBJECT

public:
    FolderTreePanel(store::Store &store, models::FolderTopicModel *model, QWidget *parent = nullptr);

    QString currentFolder() const;
    QString currentTopic() const;
    // Selects a folder, or a topic in it.
    bool select(const QString &folder, const QString &topic = {});

    QTreeView *view() const { return m_view; }
    QLineEdit *filter() const { return m_filter; }
    QList<QAction *> editActions() const;

signals:
    // Topic empty when a folder is selected; both empty when nothing is.
    void selectionChanged(const QString &folder, const QString &topic);
    void failed(const QString &message);

private:
    void addFolder();
    void addTopic();
    void renameTopic();
    void removeFolder();
    void emitSelection();

    store::Store &m_store;
    models::FolderTopicModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_view;
    QAction *m_addFolder;
    QAction *m_addTopic;
    QAction *m_rename;
    QAction *m_remove;
};

} // namespace arizuko::desktop
