#include "engine/workspace.h"

#include "engine/workspace_store.h"
#include "store/store_watcher.h"

#include <QThread>

namespace arizuko::engine {

Workspace::Workspace(store::Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_watchThread(new QThread(this))
    , m_watchAnchor(new QObject)
{
    m_watchThread->setObjectName(QStringLiteral("store watcher"));
    m_watchAnchor->moveToThread(m_watchThread);
    connect(m_watchThread, &QThread::finished, m_watchAnchor, &QObject::deleteLater);
    m_watchThread->start();
    // Made on its thread: the watcher's first read (the baseline) and its
    // timer belong there.
    QMetaObject::invokeMethod(m_watchAnchor, [this, anchor = m_watchAnchor] {
        using store::StoreWatcher;
        auto *watcher = new StoreWatcher(m_store, anchor);
        connect(watcher, &StoreWatcher::foldersChanged, this, &Workspace::foldersChanged);
        connect(watcher, &StoreWatcher::topicsChanged, this, &Workspace::topicsChanged);
        connect(watcher, &StoreWatcher::rulesChanged, this, &Workspace::rulesChanged);
        connect(watcher, &StoreWatcher::grantsChanged, this, &Workspace::grantsChanged);
        connect(watcher, &StoreWatcher::turnsChanged, this, &Workspace::turnsChanged);
        connect(watcher, &StoreWatcher::routesChanged, this, &Workspace::routesChanged);
        connect(watcher, &StoreWatcher::secretsChanged, this, &Workspace::secretsChanged);
        connect(watcher, &StoreWatcher::settingsChanged, this, &Workspace::settingsChanged);
        connect(watcher, &StoreWatcher::questionsChanged, this, &Workspace::questionsChanged);
    });
}

Workspace::~Workspace()
{
    // The anchor and its watcher go with the thread's last events.
    m_watchThread->quit();
    m_watchThread->wait();
}

void Workspace::setWatchInterval(int milliseconds)
{
    QMetaObject::invokeMethod(m_watchAnchor, [anchor = m_watchAnchor, milliseconds] {
        if (auto *watcher = anchor->findChild<store::StoreWatcher *>())
            watcher->setInterval(milliseconds);
    });
}

store::Store &storeOf(Workspace &workspace)
{
    return workspace.m_store;
}

} // namespace arizuko::engine
