// The turn states the store's queries select by: live, active and terminal
// come from one definition, so a state added later lands in every query.

#include "turn_records/turn_state.h"

#include <QTest>

using namespace arizuko::turns;

class TestTurnState : public QObject
{
    Q_OBJECT

private slots:
    void everyStateIsExactlyOneOfQueuedActiveTerminal()
    {
        for (int index = 0; index <= int(TurnState::Interrupted); ++index) {
            const auto state = static_cast<TurnState>(index);
            const int kinds = int(state == TurnState::Queued) + int(isActive(state)) +
                              int(isTerminal(state));
            QVERIFY2(kinds == 1, qPrintable(turnStateName(state)));
            QCOMPARE(turnStateFromName(turnStateName(state)), state);
        }
    }

    void theSqlListsNameTheStates()
    {
        QCOMPARE(terminalStatesSql(),
                 QStringLiteral("('done', 'failed', 'cancelled', 'interrupted')"));
        QCOMPARE(activeStatesSql(),
                 QStringLiteral("('preparing', 'booting', 'running', 'finishing')"));
    }
};

QTEST_GUILESS_MAIN(TestTurnState)
#include "test_turn_state.moc"
