#pragma once

// The egress ledger in the store: written with a turn's events (in the
// journal's transaction), read a page at a time newest first (keyset paging
// by id, so a million rows cost what one page does), and pruned after each
// folder's retention.

#include "core/result.h"
#include "ledger/ledger_entry.h"

#include <QList>
#include <QString>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::ledger {

// Days a folder's rows are kept when it has no setting.
constexpr int defaultRetentionDays = 30;
constexpr int maxRetentionDays = 36500;

struct LedgerFilter
{
    std::optional<QString> folder;
    QString turn;     // a turn id; empty: every turn
    QString since;    // a store timestamp; empty: no bound
    QString decision; // allow, deny; empty: both
    // Newest first below beforeId (0: from the newest), or with oldestFirst
    // oldest first above afterId (an export's pages, following the ledger).
    bool oldestFirst = false;
    qint64 beforeId = 0;
    qint64 afterId = 0;
    int limit = 100;
};

class Ledger
{
public:
    explicit Ledger(store::Store &store);

    // In the caller's transaction, in order. A row inserted twice (a batch
    // stored again) is kept once.
    Result<void> apply(const QList<LedgerWrite> &writes);
    // In a transaction of its own.
    Result<void> write(const QList<LedgerWrite> &writes);

    Result<QList<LedgerEntry>> page(const LedgerFilter &filter);
    // How many rows filter matches, its limit aside.
    Result<qint64> count(const LedgerFilter &filter);

    Result<int> retentionDays(const QString &folder);
    // Audited as ledger.retention by `actor`, in the change's transaction.
    Result<void> setRetentionDays(const QString &folder, int days, const QString &actor);
    // Deletes the rows older than their folder's retention at `now` (a
    // store timestamp), a bounded batch per transaction so a writer never
    // waits long; returns how many went.
    Result<qint64> prune(const QString &now);

private:
    Result<qint64> deleteOlder(const QString &where, const QVariantList &bindings);

    store::Store &m_store;
};

} // namespace arizuko::ledger
