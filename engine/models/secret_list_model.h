#pragma once

// Secret names and where they apply, never their values: the rows come
// from SecretStore::list(), which reads no value, read on a worker
// (Workspace::listSecrets and the calls that change a secret) and set here
// on the model's thread.

#include "secrets/secret_store.h"

#include <QAbstractTableModel>

namespace arizuko::models {

class SecretListModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, FolderColumn, KeyIdColumn, UpdatedColumn, ColumnCount };
    enum DataRole { FolderRole = Qt::UserRole, NameRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setSecrets(QList<secrets::SecretInfo> secrets);
    const QList<secrets::SecretInfo> &secrets() const { return m_secrets; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<secrets::SecretInfo> m_secrets;
};

} // namespace arizuko::models
