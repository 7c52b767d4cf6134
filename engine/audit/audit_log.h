#pragma once

// The append-only audit log: every grant decision, rule/grant/secret change
// and turn lifecycle event. Callers put names and decisions in `detail`,
// never a secret value.

#include "core/result.h"
#include "store/write_transaction.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <type_traits>
#include <utility>

namespace arizuko::store {
class Store;
}

namespace arizuko::audit {

struct Entry
{
    qint64 id = 0;
    QString at; // UTC ISO-8601 with milliseconds
    QString actor;
    QString kind;
    QString subject;
    QJsonObject detail;
};

struct Query
{
    // "secret" matches "secret" and every "secret.<something>"; empty: all.
    QString kind;
    QString subject; // exact; empty: all
    qint64 afterId = 0;
    int limit = 100; // the newest `limit` matching entries
    QString since;   // UTC ISO-8601 like `at`; entries at or after it; empty: all
};

class AuditLog
{
public:
    explicit AuditLog(store::Store &store);

    // Writes on the calling thread's connection, so inside an open write
    // transaction the entry commits (or rolls back) with the change itself.
    Result<qint64> record(const QString &actor, const QString &kind, const QString &subject,
                          const QJsonObject &detail = {});

    // Matching entries, oldest first.
    Result<QList<Entry>> query(const Query &query) const;

    // Begin, change, audit, commit: runs `change`, which writes to the store
    // and record()s what it did, in one write transaction, so a change and
    // its audit entries commit together or not at all. An error from
    // `change` (or the commit) rolls both back. `change` returns a Result.
    template<typename Change>
    std::invoke_result_t<Change> writeAudited(Change &&change);

private:
    Result<store::WriteTransaction> beginWrite();

    store::Store &m_store;
};

template<typename Change>
std::invoke_result_t<Change> AuditLog::writeAudited(Change &&change)
{
    Result<store::WriteTransaction> transaction = beginWrite();
    if (!transaction)
        return transaction.error();
    std::invoke_result_t<Change> changed = std::forward<Change>(change)();
    if (!changed)
        return changed;
    if (const Result<void> committed = transaction->commit(); !committed)
        return committed.error();
    return changed;
}

} // namespace arizuko::audit
