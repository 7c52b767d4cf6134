#pragma once

// A ceiling on something the gateway's connections hold between them
// (open connections, bytes of request bodies), and one holder's share of
// it, given back when the share goes. Thread-safe: the process-wide
// budgets are shared by every turn's gateway in the engine.

#include <QtGlobal>

#include <atomic>
#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

namespace arizuko::gateway {

class Budget
{
public:
    explicit Budget(qint64 limit)
        : m_limit(limit)
    {}
    Budget(const Budget &) = delete;
    Budget &operator=(const Budget &) = delete;

    qint64 limit() const { return m_limit; }
    qint64 used() const { return m_used.load(); }
    // All of `amount` or nothing.
    bool take(qint64 amount);
    void give(qint64 amount) { m_used.fetch_sub(amount); }

private:
    const qint64 m_limit;
    std::atomic<qint64> m_used{0};
};

class BudgetShare
{
public:
    BudgetShare() = default;
    BudgetShare(BudgetShare &&other) noexcept;
    BudgetShare &operator=(BudgetShare &&other) noexcept;
    ~BudgetShare() { release(); }

    // `amount` from each budget given (null ones count as unlimited), or
    // nothing at all when one of them lacks it.
    static std::optional<BudgetShare> take(std::initializer_list<std::shared_ptr<Budget>> budgets,
                                           qint64 amount);
    void release();

private:
    std::vector<std::shared_ptr<Budget>> m_budgets;
    qint64 m_amount = 0;
};

} // namespace arizuko::gateway
