#include "models/connector_list_model.h"

#include "models/network_rule_model.h"

namespace arizuko::models {

void ConnectorListModel::setOverview(const ConnectorOverview &overview)
{
    beginResetModel();
    m_connectors = overview.connectors;
    m_folder = overview.folder;
    m_holders = overview.secretHolders;
    endResetModel();
}

int ConnectorListModel::rowOf(const QString &service) const
{
    for (qsizetype row = 0; row < m_connectors.size(); ++row) {
        if (m_connectors.at(row).service == service)
            return int(row);
    }
    return -1;
}

QString ConnectorListModel::firstMissing(const connectors::Connector &connector) const
{
    for (const QString &key : connector.secretKeys) {
        if (!m_holders.contains(key))
            return key;
    }
    return {};
}

QString ConnectorListModel::secretState(const connectors::Connector &connector) const
{
    if (m_folder.isEmpty())
        return tr("choose a folder");
    QStringList states;
    for (const QString &key : connector.secretKeys) {
        const auto holder = m_holders.constFind(key);
        states << (holder == m_holders.cend() ? tr("%1 not set").arg(key)
                                              : tr("%1 set for %2").arg(key, folderLabel(*holder)));
    }
    return states.join(QStringLiteral(", "));
}

int ConnectorListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_connectors.size());
}

int ConnectorListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConnectorListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const connectors::Connector &connector = m_connectors.at(index.row());
    if (role == ServiceRole)
        return connector.service;
    if (role == SecretsSetRole)
        return !m_folder.isEmpty() && firstMissing(connector).isEmpty();
    if (role == MissingSecretRole)
        return m_folder.isEmpty() ? QString() : firstMissing(connector);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ServiceColumn:
        return connector.service;
    case SourceColumn:
        return connector.builtIn ? tr("built in") : connector.source;
    case BaseUrlColumn:
        return connector.baseUrl.toString();
    case AuthColumn:
        return connector.authName.isEmpty()
                   ? connectors::authKindName(connector.auth)
                   : QStringLiteral("%1 (%2)").arg(connectors::authKindName(connector.auth),
                                                   connector.authName);
    case SecretsColumn:
        return connector.secretKeys.join(QStringLiteral(", "));
    case SecretSetColumn:
        return secretState(connector);
    }
    return {};
}

QVariant ConnectorListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ServiceColumn:
        return tr("Service");
    case SourceColumn:
        return tr("Defined in");
    case BaseUrlColumn:
        return tr("Base URL");
    case AuthColumn:
        return tr("Auth");
    case SecretsColumn:
        return tr("Secrets it reads");
    case SecretSetColumn:
        return tr("Set for the folder?");
    }
    return {};
}

} // namespace arizuko::models
