#pragma once

// Secret names and where they apply, never their values, with each one's
// binding (the hosts it goes to and where in the request): the rows come
// from SecretStore::list(), which reads no value, and SecretBindings::list(),
// read on a worker (Workspace::listSecrets and the calls that change a
// secret) and set here on the model's thread.

#include "secrets/secret_bindings.h"
#include "secrets/secret_store.h"

#include <QAbstractTableModel>
#include <optional>

namespace arizuko::models {

class SecretListModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        NameColumn,
        FolderColumn,
        HostsColumn,
        PlacementColumn,
        KeyIdColumn,
        UpdatedColumn,
        ColumnCount
    };
    // BoundRole: whether the row's secret has a binding.
    enum DataRole
    {
        FolderRole = Qt::UserRole,
        NameRole,
        BoundRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setSecrets(QList<secrets::SecretInfo> secrets,
                    QList<secrets::SecretBinding> bindings = {});
    const QList<secrets::SecretInfo> &secrets() const { return m_secrets; }
    // The binding of the secret in `row`, if it has one.
    std::optional<secrets::SecretBinding> binding(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<secrets::SecretInfo> m_secrets;
    QList<secrets::SecretBinding> m_bindings;
};

} // namespace arizuko::models
