#include "engine/workspace.h"

#include "engine/workspace_store.h"
#include "store/store_watcher.h"

namespace arizuko::engine {

Workspace::Workspace(store::Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_watcher(new store::StoreWatcher(store, this))
{
    using store::StoreWatcher;
    connect(m_watcher, &StoreWatcher::foldersChanged, this, &Workspace::foldersChanged);
    connect(m_watcher, &StoreWatcher::topicsChanged, this, &Workspace::topicsChanged);
    connect(m_watcher, &StoreWatcher::rulesChanged, this, &Workspace::rulesChanged);
    connect(m_watcher, &StoreWatcher::grantsChanged, this, &Workspace::grantsChanged);
    connect(m_watcher, &StoreWatcher::turnsChanged, this, &Workspace::turnsChanged);
    connect(m_watcher, &StoreWatcher::routesChanged, this, &Workspace::routesChanged);
    connect(m_watcher, &StoreWatcher::secretsChanged, this, &Workspace::secretsChanged);
    connect(m_watcher, &StoreWatcher::settingsChanged, this, &Workspace::settingsChanged);
}

Workspace::~Workspace() = default;

void Workspace::setWatchInterval(int milliseconds)
{
    m_watcher->setInterval(milliseconds);
}

void Workspace::pollChanges()
{
    m_watcher->poll();
}

store::Store &storeOf(Workspace &workspace)
{
    return workspace.m_store;
}

} // namespace arizuko::engine
