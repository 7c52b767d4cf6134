// The window's prompt for a request that waits, on a real store, with this
// process's engine side (EgressQuestions; the proxy played by a callback):
// a question appears in the bar without taking the focus, names the host,
// the folder rule's form, the port and the turn, and is answered by the
// keyboard alone (Tab to "Allow for this turn", Space); the answer reaches
// the waiting proxy. The screenshot goes to the build tree: look at it.

#include "egress_question_bar.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"
#include "turns/egress_questions.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

using namespace arizuko;

class EgressQuestionBarTest final : public QObject
{
    Q_OBJECT

private slots:
    void aQuestionIsAnsweredByTheKeyboard()
    {
        QTemporaryDir data;
        auto opened = store::Store::open(data.path());
        QVERIFY(opened);
        store::Store &store = **opened;
        engine::Workspace workspace(store);
        workspace.setWatchInterval(50);
        QVERIFY(folders::Folders(store, QStringLiteral("user:test")).add(QStringLiteral("corp")));
        turns::TurnRecord turn;
        turn.id = QStringLiteral("5a5e0000-1111-4222-8333-944455556666");
        turn.name = QStringLiteral("az-5a5e0000");
        turn.folder = QStringLiteral("corp");
        turn.topic = QStringLiteral("main");
        turn.agent = QStringLiteral("command");
        turn.prompt = QStringLiteral("pip install requests");
        turn.queuedAt = store::nowTimestamp();
        turns::TurnRecords records(store);
        QVERIFY(records.insert(turn));
        QVERIFY(records.setState(turn.id, turns::TurnState::Running, store::nowTimestamp()));

        QWidget window;
        window.resize(900, 200);
        auto *layout = new QVBoxLayout(&window);
        auto *bar = new desktop::EgressQuestionBar(workspace, &window);
        auto *composer = new QLineEdit(&window);
        layout->addWidget(bar);
        layout->addWidget(composer);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QTRY_VERIFY(window.isActiveWindow());
        composer->setFocus();
        QVERIFY(bar->isHidden());

        turns::EgressQuestions questions(store, QStringLiteral("9:9"));
        QList<QPair<quint64, QString>> told;
        questions.ask({turn.id, QStringLiteral("corp"), std::chrono::seconds(60)},
                      {{QStringLiteral("id"), 4},
                       {QStringLiteral("method"), QStringLiteral("CONNECT")},
                       {QStringLiteral("host"), QStringLiteral("pypi.org")},
                       {QStringLiteral("port"), 443}},
                      [&told](quint64 id, const QString &answer, const QString &) {
                          told << qMakePair(id, answer);
                      });
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 5000);
        // Shown without taking the focus from what the user was typing in.
        QCOMPARE(QApplication::focusWidget(), composer);
        const QString text = bar->findChild<QLabel *>(QStringLiteral("egressQuestionText"))->text();
        QVERIFY2(
            text.contains(QStringLiteral("pypi.org")) && text.contains(QStringLiteral("443")) &&
                text.contains(QStringLiteral("5a5e0000")) && text.contains(QStringLiteral("corp")),
            qPrintable(text));
        auto *always = bar->findChild<QPushButton *>(QStringLiteral("allowAlwaysButton"));
        QCOMPARE(always->text(), QStringLiteral("&Always for corp (*.pypi.org)"));
        for (const char *name :
             {"allowOnceButton", "allowTurnButton", "allowAlwaysButton", "denyRequestButton"}) {
            auto *button = bar->findChild<QPushButton *>(QLatin1String(name));
            QVERIFY(!button->accessibleName().isEmpty());
            QVERIFY(button->focusPolicy() & Qt::TabFocus);
        }
        QDir().mkpath(QStringLiteral(SCREENSHOT_DIR));
        QVERIFY(window.grab().save(QStringLiteral(SCREENSHOT_DIR "/egress-question-bar.png")));

        // The keyboard alone: Tab until "Allow for this turn", then Space.
        auto *turnButton = bar->findChild<QPushButton *>(QStringLiteral("allowTurnButton"));
        for (int tab = 0; tab < 8 && QApplication::focusWidget() != turnButton; ++tab)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), turnButton);
        QTest::keyClick(turnButton, Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(told.size(), 1, 5000);
        QCOMPARE(told.first().first, quint64(4));
        QCOMPARE(told.first().second, QStringLiteral("turn"));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isHidden(), 5000);
    }
};

QTEST_MAIN(EgressQuestionBarTest)
#include "test_egress_question_bar.moc"
