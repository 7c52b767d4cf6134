#include "store/store_watcher.h"

#include "store/own_changes.h"
#include "store/store.h"

#include <QSqlQuery>

namespace arizuko::store {

StoreWatcher::StoreWatcher(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    m_timer.setInterval(defaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &StoreWatcher::poll);
    m_timer.start();
    // The first read is the baseline: what is there now is not a change.
    poll();
}

void StoreWatcher::poll()
{
    QSqlQuery query(m_store.database());
    // The subjects, and this store's own share of the turns' generation
    // (other processes' shares are theirs).
    const QString ownTurns = ownTurnsGenerationSubject(m_store);
    query.prepare(QStringLiteral("SELECT subject, value FROM change_generations WHERE subject NOT "
                                 "GLOB '*@*' OR subject = ?"));
    query.addBindValue(ownTurns);
    if (!query.exec())
        return; // a busy or closing store: the next tick tries again
    QHash<QString, qint64> values;
    while (query.next())
        values.insert(query.value(0).toString(), query.value(1).toLongLong());
    // Turns this process changed are not news: its engine reports them.
    if (const auto turns = values.find(QStringLiteral("turns")); turns != values.end())
        *turns -= values.take(ownTurns);
    const bool first = m_seen.isEmpty();
    QList<QString> changed;
    for (auto row = values.cbegin(); row != values.cend(); ++row) {
        const QString &subject = row.key();
        const qint64 value = row.value();
        auto seen = m_seen.find(subject);
        if (seen == m_seen.end()) {
            m_seen.insert(subject, value);
        } else if (*seen != value) {
            *seen = value;
            changed << subject;
        }
    }
    if (first)
        return;
    for (const QString &subject : changed) {
        if (subject == QLatin1String("folders"))
            emit foldersChanged();
        else if (subject == QLatin1String("topics"))
            emit topicsChanged();
        else if (subject == QLatin1String("rules"))
            emit rulesChanged();
        else if (subject == QLatin1String("grants"))
            emit grantsChanged();
        else if (subject == QLatin1String("turns"))
            emit turnsChanged();
        else if (subject == QLatin1String("routes"))
            emit routesChanged();
        else if (subject == QLatin1String("secrets"))
            emit secretsChanged();
        else if (subject == QLatin1String("settings"))
            emit settingsChanged();
        else if (subject == QLatin1String("questions"))
            emit questionsChanged();
    }
}

} // namespace arizuko::store
