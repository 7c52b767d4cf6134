#pragma once

// The grants that apply to one folder's agent (its own rows, its roles' and
// wildcard principals'), or every row for the base; added and removed
// through the same policy::Grants calls arizukoctl uses, on a worker (read()
// there, apply() here); reloaded() or failed() says how a read ended, a
// change answers its `done`.

#include "core/actors.h"
#include "core/result.h"
#include "models/model_work.h"
#include "policy/grant.h"

#include <QAbstractTableModel>
#include <functional>

namespace arizuko::store {
class Store;
}

namespace arizuko::models {

class GrantModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        IdColumn,
        EffectColumn,
        PrincipalColumn,
        ActionColumn,
        ScopeColumn,
        ParamsColumn,
        GrantOptionColumn,
        GrantedByColumn,
        ColumnCount
    };
    enum DataRole { IdRole = Qt::UserRole };

    static constexpr QLatin1String actor = actors::gui;

    explicit GrantModel(store::Store &store, QObject *parent = nullptr);
    ~GrantModel() override;

    QString folder() const { return m_folder; }
    // '' lists every row.
    void setFolder(const QString &folder);
    void reload();
    // The grants that apply to folder as stored now (any thread), for apply().
    static Result<QList<policy::Grant>> read(store::Store &store, const QString &folder);
    void apply(QList<policy::Grant> grants);

    // Checks a row the way add() will, without writing it.
    static Result<void> validate(const policy::Grant &grant);
    // "NAME=GLOB NAME=GLOB", the form `grant list` prints.
    static Result<policy::GrantParams> parseParams(const QString &text);
    static QString paramsText(const policy::GrantParams &params);
    // Why a row reaches further than one folder's tools or lets a secret out
    // of the host, or empty: such rows are added only once the person confirms.
    static QString broadReason(const policy::Grant &grant);
    // What a shell:env:<KEY> allow row does with the key, and the better way;
    // the window and arizukoctl grant add say the same.
    static QString shellEnvWarning(const QString &key);

    // Adds the row, then reloads.
    void add(const policy::Grant &grant, std::function<void(Result<policy::Grant>)> done);
    // A row that is not there is refused at once, through `done`.
    void removeGrant(int row, std::function<void(Result<void>)> done);
    const QList<policy::Grant> &grants() const { return m_grants; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void reloaded();
    void failed(const Error &error);

private:
    store::Store &m_store;
    LatestRead m_read;
    QString m_folder;
    QList<policy::Grant> m_grants;
};

} // namespace arizuko::models
