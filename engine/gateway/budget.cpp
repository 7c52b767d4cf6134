#include "gateway/budget.h"

#include <utility>

namespace arizuko::gateway {

bool Budget::take(qint64 amount)
{
    qint64 used = m_used.load();
    do {
        if (used + amount > m_limit)
            return false;
    } while (!m_used.compare_exchange_weak(used, used + amount));
    return true;
}

BudgetShare::BudgetShare(BudgetShare &&other) noexcept
    : m_budgets(std::move(other.m_budgets))
    , m_amount(std::exchange(other.m_amount, 0))
{}

BudgetShare &BudgetShare::operator=(BudgetShare &&other) noexcept
{
    if (this != &other) {
        release();
        m_budgets = std::move(other.m_budgets);
        m_amount = std::exchange(other.m_amount, 0);
    }
    return *this;
}

std::optional<BudgetShare> BudgetShare::take(std::initializer_list<std::shared_ptr<Budget>> budgets,
                                             qint64 amount)
{
    BudgetShare share;
    share.m_amount = amount;
    for (const std::shared_ptr<Budget> &budget : budgets) {
        if (!budget)
            continue;
        if (!budget->take(amount))
            return std::nullopt; // `share` gives back what it took so far
        share.m_budgets.push_back(budget);
    }
    return share;
}

void BudgetShare::release()
{
    for (const std::shared_ptr<Budget> &budget : m_budgets)
        budget->give(m_amount);
    m_budgets.clear();
    m_amount = 0;
}

} // namespace arizuko::gateway
