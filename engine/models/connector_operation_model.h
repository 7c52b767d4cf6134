#pragma once

// The operations of one connector: the tool the agent calls, the request
// the host makes, its grant scope, and whether the chosen folder's agent
// sees it and why, in EffectiveToolModel's words (the deciding grant).

#include "models/connector_overview.h"

#include <QAbstractTableModel>

namespace arizuko::models {

class ConnectorOperationModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ToolColumn,
        RequestColumn,
        ScopeColumn,
        VisibleColumn,
        DecidedByColumn,
        ReasonColumn,
        ColumnCount
    };
    enum DataRole
    {
        ToolRole = Qt::UserRole,
        ReadRole,
        VisibleRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    // The operations of `service` in `overview` (none when it has no such).
    void show(const ConnectorOverview &overview, const QString &service);
    const connectors::Operation *operation(int row) const;
    int rowOf(const QString &tool) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        connectors::Operation operation;
        // Empty `tool` without a folder: nothing is decided then.
        EffectiveToolModel::Row decision;
    };
    QList<Row> m_rows;
};

} // namespace arizuko::models
