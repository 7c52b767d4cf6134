#pragma once

// Keeps a PolicySnapshot per connection and proves it current on every call with
// one indexed read of policy_generation, which triggers bump on any change to a
// policy table from any process; a stale snapshot is reloaded before it is used.

#include "core/result.h"
#include "policy/policy_snapshot.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <memory>

namespace arizuko::policy {

class PolicyCache
{
public:
    // db must stay open for the cache's lifetime and be used from this thread only.
    explicit PolicyCache(QSqlDatabase db);
    PolicyCache(const PolicyCache &) = delete;
    PolicyCache &operator=(const PolicyCache &) = delete;

    Result<const PolicySnapshot *> current();
    QSqlDatabase database() const { return m_db; }

private:
    Result<qint64> readGeneration();
    Result<std::unique_ptr<PolicySnapshot>> load();

    QSqlDatabase m_db;
    QSqlQuery m_generationQuery;
    qint64 m_generation = -1;
    std::unique_ptr<PolicySnapshot> m_snapshot;
};

} // namespace arizuko::policy
