#include "models/effective_tool_model.h"

#include "policy/policy.h"

namespace arizuko::models {

EffectiveToolModel::EffectiveToolModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{}

Result<QList<EffectiveToolModel::Row>> EffectiveToolModel::rowsFor(policy::Policy &policy,
                                                                   const QString &folder,
                                                                   const QStringList &actions)
{
    QList<Row> rows;
    if (folder.isEmpty())
        return rows;
    QStringList catalogue = actions;
    if (catalogue.isEmpty()) {
        const Result<QStringList> named = policy.grants().toolCatalogue();
        if (!named)
            return named.error();
        catalogue = *named;
    }
    const Result<QStringList> visible = policy.grants().effectiveActions(folder, folder, catalogue);
    if (!visible)
        return visible.error();
    for (const QString &tool : std::as_const(catalogue)) {
        // authorize() names the row; a call without params is what the
        // agent's listing asks, so its reason is the one shown.
        const Result<policy::Decision> decision = policy.grants().authorize(folder, tool, folder);
        if (!decision)
            return decision.error();
        rows.append({tool, visible->contains(tool), decision->decidingGrant, decision->reason});
    }
    return rows;
}

void EffectiveToolModel::setFolder(const QString &folder)
{
    m_folder = folder;
    reload();
}

void EffectiveToolModel::reload()
{
    m_read.start(
        this, m_store,
        [folder = m_folder](store::Store &store) {
            policy::Policy policy(store);
            return rowsFor(policy, folder);
        },
        [this](QList<Row> rows) { apply(std::move(rows)); });
}

void EffectiveToolModel::apply(QList<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    emit reloaded();
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
    return cellText(row, Column(index.column()));
}

QString EffectiveToolModel::cellText(const Row &row, Column column)
{
    switch (column) {
    case ToolColumn:
        return row.tool;
    case VisibleColumn:
        return row.visible ? tr("visible") : tr("hidden");
    case DecidedByColumn:
        return row.decidingGrant ? policy::describeGrant(*row.decidingGrant) : tr("no grant");
    case ReasonColumn:
        return row.reason;
    case ColumnCount:
        break;
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
