#include "models/connector_operation_model.h"

namespace arizuko::models {

void ConnectorOperationModel::show(const ConnectorOverview &overview, const QString &service)
{
    QList<Row> rows;
    for (const connectors::Connector &connector : overview.connectors) {
        if (connector.service != service)
            continue;
        for (const connectors::Operation &operation : connector.operations) {
            const EffectiveToolModel::Row *decision = overview.scope(operation.scope);
            rows.append({operation, decision ? *decision : EffectiveToolModel::Row{}});
        }
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const connectors::Operation *ConnectorOperationModel::operation(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).operation : nullptr;
}

int ConnectorOperationModel::rowOf(const QString &tool) const
{
    for (qsizetype row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).operation.tool == tool)
            return int(row);
    }
    return -1;
}

int ConnectorOperationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConnectorOperationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConnectorOperationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &row = m_rows.at(index.row());
    const bool decided = !row.decision.tool.isEmpty();
    if (role == ToolRole)
        return row.operation.tool;
    if (role == ReadRole)
        return row.operation.isRead();
    if (role == VisibleRole)
        return decided && row.decision.visible;
    if (role == Qt::ToolTipRole && index.column() == ToolColumn)
        return row.operation.description;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ToolColumn:
        return row.operation.tool;
    case RequestColumn:
        return QStringLiteral("%1 %2").arg(QString::fromLatin1(row.operation.method),
                                           row.operation.path);
    case ScopeColumn:
        return row.operation.scope;
    case VisibleColumn:
        return decided
                   ? EffectiveToolModel::cellText(row.decision, EffectiveToolModel::VisibleColumn)
                   : tr("choose a folder");
    case DecidedByColumn:
        return decided
                   ? EffectiveToolModel::cellText(row.decision, EffectiveToolModel::DecidedByColumn)
                   : QString();
    case ReasonColumn:
        return decided
                   ? EffectiveToolModel::cellText(row.decision, EffectiveToolModel::ReasonColumn)
                   : QString();
    }
    return {};
}

QVariant ConnectorOperationModel::headerData(int section, Qt::Orientation orientation,
                                             int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ToolColumn:
        return tr("Tool");
    case RequestColumn:
        return tr("Request");
    case ScopeColumn:
        return tr("Grant scope");
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
