#include "models/secret_list_model.h"

#include "models/network_rule_model.h"

namespace arizuko::models {

void SecretListModel::setSecrets(QList<secrets::SecretInfo> secrets,
                                 QList<secrets::SecretBinding> bindings)
{
    beginResetModel();
    m_secrets = std::move(secrets);
    m_bindings = std::move(bindings);
    endResetModel();
}

std::optional<secrets::SecretBinding> SecretListModel::binding(int row) const
{
    if (row < 0 || row >= m_secrets.size())
        return std::nullopt;
    const secrets::SecretInfo &secret = m_secrets.at(row);
    for (const secrets::SecretBinding &binding : m_bindings) {
        if (binding.folder == secret.folder && binding.key == secret.key)
            return binding;
    }
    return std::nullopt;
}

int SecretListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_secrets.size());
}

int SecretListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SecretListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const secrets::SecretInfo &secret = m_secrets.at(index.row());
    if (role == FolderRole)
        return secret.folder;
    if (role == NameRole)
        return secret.key;
    const std::optional<secrets::SecretBinding> bound = binding(index.row());
    if (role == BoundRole)
        return bound.has_value();
    if (role == Qt::ToolTipRole && !bound &&
        (index.column() == HostsColumn || index.column() == PlacementColumn))
        return tr("Not bound: a turn gets no placeholder for it (a shell:env grant gives "
                  "the value itself).");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return secret.key;
    case FolderColumn:
        return folderLabel(secret.folder);
    case HostsColumn:
        return bound ? bound->hosts.join(QStringLiteral(", ")) : tr("(not bound)");
    case PlacementColumn:
        if (!bound)
            return QString();
        return bound->placement.basic ? tr("HTTP Basic password")
                                      : secrets::placementText(bound->placement);
    case KeyIdColumn:
        return secret.keyId;
    case UpdatedColumn:
        return secret.updatedAt;
    }
    return {};
}

QVariant SecretListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case FolderColumn:
        return tr("Applies to");
    case HostsColumn:
        return tr("Bound to hosts");
    case PlacementColumn:
        return tr("Goes into");
    case KeyIdColumn:
        return tr("Sealed with key");
    case UpdatedColumn:
        return tr("Updated");
    }
    return {};
}

} // namespace arizuko::models
