#pragma once

// The folders and their topics as a tree, with a filter box and the
// actions on them: new folder or topic, rename either, move a folder (also
// by dragging it onto another), remove either — each confirmed or asked for
// by name, a move after showing every folder that goes with it. Every read
// and change runs on a worker through the workspace (a move may re-seal
// secrets through the OS keyring, a removal delete a home full of files).
// Running and queued topics are marked.

#include "core/result.h"

#include <QWidget>
#include <functional>
#include <optional>

class QAction;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class FolderTopicModel;
}

namespace arizuko::desktop {

class FolderTreePanel final : public QWidget
{
    Q_OBJECT

public:
    // `model` comes from `workspace` (Workspace::make).
    FolderTreePanel(engine::Workspace &workspace, models::FolderTopicModel *model,
                    QWidget *parent = nullptr);

    QString currentFolder() const;
    QString currentTopic() const;
    // Selects a folder, or a topic in it.
    bool select(const QString &folder, const QString &topic = {});

    QTreeView *view() const { return m_view; }
    QLineEdit *filter() const { return m_filter; }
    QList<QAction *> editActions() const;

    // Reads the tree on a worker and shows it, then calls `then`
    // (FolderTopicModel::reload).
    void reload(std::function<void()> then = {});

    // What a drop of folder `from` onto folder `parent` ('' for the top)
    // does: asks, then moves it there. The view's drops come here.
    void dropFolder(const QString &from, const QString &parent);

signals:
    // Topic empty when a folder is selected; both empty when nothing is.
    void selectionChanged(const QString &folder, const QString &topic);
    void failed(const QString &message);
    // A change done on the worker has been applied and shown.
    void changed();

private:
    void addFolder();
    void addTopic();
    void renameSelected();
    void moveFolder();
    void removeSelected();
    void removeFolder();
    void removeTopic();
    // Shows what moves with `from` and asks; then moves it on a worker.
    void confirmMove(const QString &from, const QString &to);
    // Where the tree goes after a change: a folder, or a topic in it.
    struct TreePlace
    {
        QString folder;
        QString topic;
    };
    // The answer to a change: the tree read again with the place `where`
    // makes of the change's value selected, or its error through failed().
    template<typename T, typename Where>
    std::function<void(Result<T>)> thenSelect(Where where);
    bool confirm(const QString &objectName, const QString &title, const QString &text);
    std::optional<QString> askText(const QString &objectName, const QString &title,
                                   const QString &label, const QString &text);
    void emitSelection();

    engine::Workspace &m_workspace;
    models::FolderTopicModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_view;
    QAction *m_addFolder;
    QAction *m_addTopic;
    QAction *m_rename;
    QAction *m_move;
    QAction *m_remove;
};

} // namespace arizuko::desktop
