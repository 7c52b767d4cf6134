#include "models/effective_tool_model.h"

#include "policy/policy.h"

namespace arizuko::models {

Result<void> EffectiveToolModel::compute(policy::Policy &policy, const QString &folder)
{
    QList<Row> rows;
    if (!folder.isEmpty()) {
        const Result<QStringList> catalogue = policy.grants().toolCatalogue();
        if (!catalogue)
            return catalogue.error();
        const Result<QStringList> visible = policy.grants().effectiveActions(folder, folder);
        if (!visible)
            return visible.error();
        for (const QString &tool : *catalogue) {
            // authorize() names the row; a call without params is what the
            // agent's listing asks, so its reason is the one shown.
            const Result<policy::Decision> decision =
                policy.grants().authorize(folder, tool, folder);
            if (!decision)
                return decision.error();
            rows.append({tool, visible->contains(tool), decision->decidingGrant, decision->reason});
        }
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    return {};
}

const EffectiveToolModel::Row *EffectiveToolModel::find(const QString &tool) const
{
    for (const Row &row : m_rows) {
        if (row.tool == tool)
            return &row;
    }
    return nullptr;
}

int EffectiveToolModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EffectiveToolModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EffectiveToolModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == VisibleRole)
        return row.visible;
    if (role == GrantIdRole)
        return row.decidingGrant ? row.decidingGrant->id : 0;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ToolColumn:
        return row.tool;
    case VisibleColumn:
        return row.visible ? tr("visible") : tr("hidden");
    case DecidedByColumn:
        return row.decidingGrant ? policy::describeGrant(*row.decidingGrant) : tr("no grant");
    case ReasonColumn:
        return row.reason;
    }
    return {};
}

QVariant EffectiveToolModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ToolColumn:
        return tr("Tool");
    case VisibleColumn:
        return tr("Agent sees it");
    case DecidedByColumn:
        return tr("Decided by");
    case ReasonColumn:
        return tr("Why");
    }
    return {};
}

} // namespace arizuko::models
