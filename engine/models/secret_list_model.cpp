#include "models/secret_list_model.h"

#include "models/network_rule_model.h"

namespace arizuko::models {

void SecretListModel::setSecrets(QList<secrets::SecretInfo> secrets)
{
    beginResetModel();
    m_secrets = std::move(secrets);
    endResetModel();
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
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return secret.key;
    case FolderColumn:
        return folderLabel(secret.folder);
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
    case KeyIdColumn:
        return tr("Sealed with key");
    case UpdatedColumn:
        return tr("Updated");
    }
    return {};
}

} // namespace arizuko::models
