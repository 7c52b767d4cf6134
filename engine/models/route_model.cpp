#include "models/route_model.h"

#include "policy/policy.h"

using namespace Qt::StringLiterals;

namespace arizuko::models {

RouteModel::RouteModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_engine(std::make_unique<policy::Policy>(store))
{
}

RouteModel::~RouteModel() = default;

Result<void> RouteModel::reload()
{
    Result<QList<policy::Route>> routes = m_engine->routes().list();
    if (!routes)
        return routes.error();
    beginResetModel();
    m_routes = std::move(*routes);
    m_verdicts.clear();
    m_winner = 0;
    endResetModel();
    return {};
}

Result<policy::Route> RouteModel::add(qint64 seq, const QString &match, const QString &target)
{
    Result<policy::Route> added = m_engine->routes().add(seq, match, target, actor.toString());
    if (added)
        (void)reload();
    return added;
}

Result<void> RouteModel::removeRoute(int row)
{
    if (row < 0 || row >= m_routes.size())
        return makeError(u"desktop.no-row"_s, u"No route is selected."_s);
    if (const auto removed = m_engine->routes().remove(m_routes.at(row).id, actor.toString());
        !removed)
        return removed.error();
    return reload();
}

Result<policy::MessageAttributes> RouteModel::parseAttributes(const QString &text)
{
    policy::MessageAttributes attributes;
    for (const QString &pair : text.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals <= 0)
            return makeError(u"desktop.bad-attribute"_s,
                             u"'%1' is not key=value; write e.g. chat=corp/eng"_s.arg(pair));
        attributes.insert(pair.first(equals), pair.sliced(equals + 1));
    }
    return attributes;
}

Result<std::optional<policy::RouteMatch>>
RouteModel::test(const policy::MessageAttributes &attributes)
{
    Result<std::optional<policy::RouteMatch>> winner = m_engine->routes().resolve(attributes);
    if (!winner)
        return winner;
    m_winner = *winner ? (*winner)->route.id : 0;
    m_verdicts.clear();
    bool decided = false;
    for (const policy::Route &route : std::as_const(m_routes)) {
        const auto predicates = policy::parseRouteMatch(route.match);
        if (decided) {
            m_verdicts << tr("not tried: an earlier route won");
        } else if (route.id == m_winner) {
            decided = true;
            m_verdicts << (route.match.isEmpty() ? tr("WINS: matches every message")
                                                 : tr("WINS: every predicate matches"));
        } else if (!predicates) {
            m_verdicts << predicates.error().message;
        } else {
            QStringList failed;
            for (const policy::RoutePredicate &predicate : *predicates) {
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
    const policy::Route &route = m_routes.at(index.row());
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
