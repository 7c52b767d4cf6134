#pragma once

// The routes in the order they are tried, and for a test message which one
// wins and why each one before it did not: the engine's own parse and match
// per row, and its resolveRoute() for the winner, over the routes shown. The
// store is read and written on a worker (read() there, apply() here).

#include "core/actors.h"
#include "core/result.h"
#include "models/model_work.h"
#include "policy/route.h"

#include <QAbstractTableModel>
#include <functional>

namespace arizuko::store {
class Store;
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

    void reload();
    // The routes as stored now, in the order they are tried (any thread).
    static Result<QList<policy::ParsedRoute>> read(store::Store &store);
    void apply(QList<policy::ParsedRoute> routes);

    // Each change re-reads the routes once it is done; a row that is not
    // there is refused at once, through `done`.
    void add(qint64 seq, const QString &match, const QString &target,
             std::function<void(Result<policy::Route>)> done);
    void removeRoute(int row, std::function<void(Result<void>)> done);
    // Moves the route at `from` to row `to` through the engine (persisted,
    // audited).
    void moveRoute(int from, int to, std::function<void(Result<void>)> done);

    // "key=value key=value" as `arizukoctl route test` takes them.
    static Result<policy::MessageAttributes> parseAttributes(const QString &text);
    // Tests a message against the routes shown: fills the test column and
    // returns the winner (none: nullopt).
    std::optional<policy::RouteMatch> test(const policy::MessageAttributes &attributes);

    // Drag to reorder: a row dropped between others moves there (moveRoute);
    // the drop starts the move, and a move the engine refuses is said by
    // moveRefused().
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
    void reloaded();
    void failed(const Error &error);
    // A dropped row the engine did not move, and why.
    void moveRefused(const QString &message);

private:
    store::Store &m_store;
    LatestRead m_read;
    QList<policy::ParsedRoute> m_routes;
    QStringList m_verdicts; // per row, after test()
    qint64 m_winner = 0;
};

} // namespace arizuko::models
