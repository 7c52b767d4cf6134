#include "turns/turn_outcome.h"

#include "turns/console_tail.h"
#include "turns/saved_settings.h"

namespace arizuko::turns {
namespace {

// How much of a console log a boot-limit error quotes.
constexpr int consoleTailLines = 20;

} // namespace

TurnOutcome outcomeOfGuestExit(const std::optional<QJsonObject> &exit,
                               const QString &consoleLogPath)
{
    if (!exit)
        return {TurnState::Failed,
                makeError(QStringLiteral("turns.guest-stopped"),
                          QStringLiteral("the VM stopped before the guest reported an exit; see %1")
                              .arg(consoleLogPath))};
    const QString reason = exit->value(QStringLiteral("reason")).toString();
    const int code = exit->value(QStringLiteral("code")).toInt();
    if (reason == QLatin1String("exited") && code == 0)
        return {TurnState::Done, std::nullopt};
    if (reason == QLatin1String("cancelled"))
        return {TurnState::Cancelled, std::nullopt};
    if (reason == QLatin1String("timeout"))
        return {TurnState::Failed,
                makeError(QStringLiteral("turns.deadline"),
                          QStringLiteral("the guest stopped the agent at the deadline"))};
    return {TurnState::Failed,
            makeError(QStringLiteral("turns.agent-failed"),
                      QStringLiteral("the agent ended with %1 (status %2)%3")
                          .arg(reason)
                          .arg(code)
                          .arg(exit->contains(QStringLiteral("message"))
                                   ? QStringLiteral(": ") +
                                         exit->value(QStringLiteral("message")).toString()
                                   : QString()))};
}

Error bootTimeoutError(const QString &consoleLogPath, std::chrono::milliseconds limit)
{
    const QStringList tail = consoleTail(consoleLogPath, consoleTailLines);
    const QString message =
        QStringLiteral("the guest did not report within the boot limit of %1 s (setting %2)")
            .arg(limit.count() / 1000)
            .arg(setting::bootLimit);
    return makeError(
        QStringLiteral("turns.boot-timeout"),
        tail.isEmpty()
            ? message + QStringLiteral("; its console log %1 is empty").arg(consoleLogPath)
            : message +
                  QStringLiteral("; the last lines of its console (%1):\n").arg(consoleLogPath) +
                  tail.join(QLatin1Char('\n')));
}

} // namespace arizuko::turns
