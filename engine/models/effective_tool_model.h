#pragma once

// Which tools a folder's agent will see, and why: for every tool some grant
// names (or the actions asked, such as connector scopes), visible or not,
// with the grant that allows it or the deny that blocks it, as the tool
// gateway will decide them.

#include "core/result.h"
#include "policy/grant.h"

#include <QAbstractTableModel>

namespace arizuko::policy {
class Policy;
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

    using QAbstractTableModel::QAbstractTableModel;

    // The folder's agent, acting on its own folder (what a turn asks), over
    // `actions`: by default every mcp: tool some grant names.
    static Result<QList<Row>> rowsFor(policy::Policy &policy, const QString &folder,
                                      const QStringList &actions = {});
    Result<void> compute(policy::Policy &policy, const QString &folder);
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

private:
    QList<Row> m_rows;
};

} // namespace arizuko::models
