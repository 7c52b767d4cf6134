#pragma once

// The connectors the host knows, one row each: where it comes from (built
// in, or the user's file), its base URL and auth, the secrets it reads and
// whether the chosen folder has each (from the nearest folder up; names
// only, a value is never read).

#include "models/connector_overview.h"

#include <QAbstractTableModel>

namespace arizuko::models {

class ConnectorListModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ServiceColumn,
        SourceColumn,
        BaseUrlColumn,
        AuthColumn,
        SecretsColumn,
        SecretSetColumn,
        ColumnCount
    };
    enum DataRole
    {
        ServiceRole = Qt::UserRole,
        SecretsSetRole,
        MissingSecretRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setOverview(const ConnectorOverview &overview);
    int rowOf(const QString &service) const;
    // "set for corp", "not set", per key, joined.
    QString secretState(const connectors::Connector &connector) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString firstMissing(const connectors::Connector &connector) const;

    QList<connectors::Connector> m_connectors;
    QString m_folder;
    QMap<QString, QString> m_holders;
};

} // namespace arizuko::models
