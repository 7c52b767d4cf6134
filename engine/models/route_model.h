#pragma once

// The routes in the order they are tried, and for a test message which one
// wins and why each one before it did not: the engine's own parse and match
// per row, and its resolve() for the winner.

#include "core/actors.h"
#include "core/result.h"
#include "policy/route.h"

#include <QAbstractTableModel>
#include <memory>

namespace arizuko::store {
class Store;
}
namespace arizuko::policy {
class Policy;
}

namespace arizuko::models {

class RouteModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SeqColumn, MatchColumn, TargetColumn, TestColumn, ColumnCount };
    enum DataRole { IdRole = Qt::UserRole, WinnerRole };

    static constexpr QLatin1String actor = actors::gui;

    explicit RouteModel(store::Store &store, QObject *parent = nullptr);
    ~RouteModel() override;

    Result<void> reload();
    Result<policy::Route> add(qint64 seq, const QString &match, const QString &target);
    Result<void> removeRoute(int row);
    // Moves the route at `from` to row `to` through the engine (persisted,
    // audited), then re-reads the order.
    Result<void> moveRoute(int from, int to);

    // "key=value key=value" as `arizukoctl route test` takes them.
    static Result<policy::MessageAttributes> parseAttributes(const QString &text);
    // Tests a message: fills the test column and returns the winner (none: nullopt).
    Result<std::optional<policy::RouteMatch>> test(const policy::MessageAttributes &attributes);

    // Drag to reorder: a row dropped between others moves there (moveRoute).
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    Qt::DropActions supportedDropActions() const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                      const QModelIndex &parent) override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // A dropped row the engine did not move, and why.
    void moveRefused(const QString &message);

private:
    std::unique_ptr<policy::Policy> m_engine;
    QList<policy::Route> m_routes;
    QStringList m_verdicts; // per row, after test()
    qint64 m_winner = 0;
};

} // namespace arizuko::models
