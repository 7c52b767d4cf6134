#include "turn_records/turn_state.h"

#include <QStringList>
#include <array>

namespace arizuko::turns {
namespace {

constexpr std::array names = {"queued", "preparing", "booting",   "running",    "finishing",
                              "done",   "failed",    "cancelled", "interrupted"};

} // namespace

QString turnStateName(TurnState state)
{
    return QString::fromLatin1(names[static_cast<size_t>(state)]);
}

std::optional<TurnState> turnStateFromName(const QString &name)
{
    for (size_t index = 0; index < names.size(); ++index) {
        if (name == QLatin1String(names[index]))
            return static_cast<TurnState>(index);
    }
    return std::nullopt;
}

bool isTerminal(TurnState state)
{
    return state >= TurnState::Done;
}

bool isActive(TurnState state)
{
    return state != TurnState::Queued && !isTerminal(state);
}

namespace {

template<typename Predicate>
QString sqlListOf(Predicate matches)
{
    QStringList quoted;
    for (size_t index = 0; index < names.size(); ++index) {
        if (matches(static_cast<TurnState>(index)))
            quoted << QStringLiteral("'%1'").arg(QLatin1String(names[index]));
    }
    return QLatin1Char('(') + quoted.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace

QString terminalStatesSql()
{
    return sqlListOf(isTerminal);
}

QString activeStatesSql()
{
    return sqlListOf(isActive);
}

QString turnStateTimeColumn(TurnState state)
{
    return isTerminal(state) ? QStringLiteral("ended_at")
                             : turnStateName(state) + QStringLiteral("_at");
}

} // namespace arizuko::turns
