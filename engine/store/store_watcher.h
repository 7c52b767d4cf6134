#pragma once

// Tells a window what changed in the store: folders, topics, rules and the
// rest whoever changed them, this process or arizukoctl beside it; turns
// only when another process changed them (this process's engine reports
// its own turns as values). Polls the generations that triggers bump
// (migrations 0003 and 0005) on a timer; a read of a few integers, so it
// can poll often enough that a change shows within a second.

#include <QHash>
#include <QObject>
#include <QTimer>

namespace arizuko::store {

class Store;

class StoreWatcher final : public QObject
{
    Q_OBJECT

public:
    static constexpr int defaultIntervalMs = 200;

    explicit StoreWatcher(Store &store, QObject *parent = nullptr);

    void setInterval(int milliseconds) { m_timer.setInterval(milliseconds); }
    // Reads the generations now; emits for what changed since the last read.
    void poll();

signals:
    void foldersChanged();
    void topicsChanged();
    void rulesChanged();
    void grantsChanged();
    // Another process's turn changed (Store::ownTurnsGenerationSubject).
    void turnsChanged();
    void routesChanged();
    void secretsChanged();
    void settingsChanged();
    // An egress question was asked, answered or closed (schema 9).
    void questionsChanged();

private:
    Store &m_store;
    QTimer m_timer;
    QHash<QString, qint64> m_seen;
};

} // namespace arizuko::store
