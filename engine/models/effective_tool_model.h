#pragma once

// Which tools a folder's agent will see, and why: for every tool some grant
// names (or the actions asked, such as connector scopes), visible or not,
// with the grant that allows it or the deny that blocks it, as the tool
// gateway will decide them. Read on a worker (rowsFor() there, apply() here).

#include "core/result.h"
#include "models/model_work.h"
#include "policy/grant.h"

#include <QAbstractTableModel>

namespace arizuko::policy {
class Policy;
}
namespace arizuko::store {
class Store;
}

namespace arizuko::models {

class EffectiveToolModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { ToolColumn, VisibleColumn, DecidedByColumn, ReasonColumn, ColumnCount };
    enum DataRole { VisibleRole = Qt::UserRole, GrantIdRole };

    struct Row
    {
        QString tool;
        bool visible = false;
        std::optional<policy::Grant> decidingGrant;
        QString reason;
    };

    explicit EffectiveToolModel(store::Store &store, QObject *parent = nullptr);

    // The folder's agent, acting on its own folder (what a turn asks), over
    // `actions`: by default every mcp: tool some grant names.
    static Result<QList<Row>> rowsFor(policy::Policy &policy, const QString &folder,
                                      const QStringList &actions = {});
    // Shows the tools of folder's agent once they are read ('': none).
    void setFolder(const QString &folder);
    void reload();
    void apply(QList<Row> rows);
    // A row's cell as this model shows it (VisibleColumn, DecidedByColumn,
    // ReasonColumn), for views that show the same reasoning beside more.
    static QString cellText(const Row &row, Column column);
    const QList<Row> &rows() const { return m_rows; }
    const Row *find(const QString &tool) const;

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
    QList<Row> m_rows;
};

} // namespace arizuko::models
