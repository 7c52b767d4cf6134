#include "models/route_model.h"

#include "policy/policy.h"

#include <QMimeData>
#include <algorithm>

namespace arizuko::models {

RouteModel::RouteModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
}

RouteModel::~RouteModel() = default;

Result<QList<policy::ParsedRoute>> RouteModel::read(store::Store &store)
{
    Result<QList<policy::Route>> routes = policy::Policy(store).routes().list();
    if (!routes)
        return routes.error();
    QList<policy::ParsedRoute> parsed;
    for (policy::Route &route : *routes)
        parsed << policy::parseRoute(std::move(route));
    return parsed;
}

void RouteModel::reload()
{
    m_read.start(this, m_store, &RouteModel::read,
                 [this](QList<policy::ParsedRoute> routes) { apply(std::move(routes)); });
}

void RouteModel::apply(QList<policy::ParsedRoute> routes)
{
    beginResetModel();
    m_routes = std::move(routes);
    m_verdicts.clear();
    m_winner = 0;
    endResetModel();
    emit reloaded();
}

void RouteModel::add(qint64 seq, const QString &match, const QString &target,
                     std::function<void(Result<policy::Route>)> done)
{
    changeThenReload(
        this, m_store,
        [seq, match, target](store::Store &store) {
            return policy::Policy(store).routes().add(seq, match, target, actor.toString());
        },
        std::move(done));
}

void RouteModel::removeRoute(int row, std::function<void(Result<void>)> done)
{
    if (row < 0 || row >= m_routes.size()) {
        done(makeError(QStringLiteral("desktop.no-row"), QStringLiteral("No route is selected.")));
        return;
    }
    changeThenReload(
        this, m_store,
        [id = m_routes.at(row).route.id](store::Store &store) {
            return withoutValue(policy::Policy(store).routes().remove(id, actor.toString()));
        },
        std::move(done));
}

void RouteModel::moveRoute(int from, int to, std::function<void(Result<void>)> done)
{
    if (from < 0 || from >= m_routes.size()) {
        done(makeError(QStringLiteral("desktop.no-row"), QStringLiteral("No route is selected.")));
        return;
    }
    changeThenReload(
        this, m_store,
        [id = m_routes.at(from).route.id, to](store::Store &store) {
            return withoutValue(policy::Policy(store).routes().move(id, to, actor.toString()));
        },
        std::move(done));
}

namespace {
const QString routeRowMime = QStringLiteral("application/x-arizuko-route-row");
}

Qt::ItemFlags RouteModel::flags(const QModelIndex &index) const
{
    const Qt::ItemFlags base = QAbstractTableModel::flags(index);
    return index.isValid() ? base | Qt::ItemIsDragEnabled : base | Qt::ItemIsDropEnabled;
}

Qt::DropActions RouteModel::supportedDropActions() const
{
    return Qt::MoveAction;
}

QStringList RouteModel::mimeTypes() const
{
    return {routeRowMime};
}

QMimeData *RouteModel::mimeData(const QModelIndexList &indexes) const
{
    if (indexes.isEmpty())
        return nullptr;
    auto *data = new QMimeData;
    data->setData(routeRowMime, QByteArray::number(indexes.first().row()));
    return data;
}

bool RouteModel::dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int,
                              const QModelIndex &parent)
{
    if (action != Qt::MoveAction || !data || !data->hasFormat(routeRowMime))
        return false;
    bool ok = false;
    const int from = data->data(routeRowMime).toInt(&ok);
    // Dropped on a row: before it; between rows: at `row`; below the last: the end.
    const int before = row >= 0 ? row : parent.isValid() ? parent.row() : int(m_routes.size());
    if (!ok || from < 0 || from >= m_routes.size())
        return false;
    const int to = std::clamp(before > from ? before - 1 : before, 0, int(m_routes.size()) - 1);
    if (to == from)
        return false;
    moveRoute(from, to, [this](const Result<void> &moved) {
        if (!moved)
            emit moveRefused(moved.error().message);
    });
    // The view removes nothing after a move (removeRows is not offered):
    // the reload once the move is done shows the new order.
    return true;
}

Result<policy::MessageAttributes> RouteModel::parseAttributes(const QString &text)
{
    policy::MessageAttributes attributes;
    for (const QString &pair : text.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals <= 0)
            return makeError(
                QStringLiteral("desktop.bad-attribute"),
                QStringLiteral("'%1' is not key=value; write e.g. chat=corp/eng").arg(pair));
        attributes.insert(pair.first(equals), pair.sliced(equals + 1));
    }
    return attributes;
}

std::optional<policy::RouteMatch> RouteModel::test(const policy::MessageAttributes &attributes)
{
    std::optional<policy::RouteMatch> winner = policy::resolveRoute(m_routes, attributes);
    m_winner = winner ? winner->route.id : 0;
    m_verdicts.clear();
    bool decided = false;
    for (const policy::ParsedRoute &parsed : std::as_const(m_routes)) {
        const policy::Route &route = parsed.route;
        if (decided) {
            m_verdicts << tr("not tried: an earlier route won");
        } else if (route.id == m_winner) {
            decided = true;
            m_verdicts << (route.match.isEmpty() ? tr("WINS: matches every message")
                                                 : tr("WINS: every predicate matches"));
        } else if (!parsed.predicates) {
            m_verdicts << policy::parseRouteMatch(route.match).error().message;
        } else {
            QStringList failed;
            for (const policy::RoutePredicate &predicate : *parsed.predicates) {
                if (!policy::routePredicatesMatch({predicate}, attributes))
                    failed << predicate.key + u'=' + predicate.glob;
            }
            m_verdicts << tr("no match: %1").arg(failed.join(u", "));
        }
    }
    if (!m_routes.isEmpty())
        emit dataChanged(index(0, TestColumn), index(int(m_routes.size()) - 1, TestColumn));
    return winner;
}

int RouteModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_routes.size());
}

int RouteModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RouteModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const policy::Route &route = m_routes.at(index.row()).route;
    if (role == IdRole)
        return route.id;
    if (role == WinnerRole)
        return m_winner != 0 && route.id == m_winner;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SeqColumn:
        return route.seq;
    case MatchColumn:
        return route.match.isEmpty() ? tr("(every message)") : route.match;
    case TargetColumn:
        return route.target;
    case TestColumn:
        return index.row() < m_verdicts.size() ? m_verdicts.at(index.row()) : QString();
    }
    return {};
}

QVariant RouteModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeqColumn:
        return tr("Order");
    case MatchColumn:
        return tr("Match");
    case TargetColumn:
        return tr("Folder");
    case TestColumn:
        return tr("Test message");
    }
    return {};
}

} // namespace arizuko::models
