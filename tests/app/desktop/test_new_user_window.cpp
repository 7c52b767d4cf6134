// The window as a new user meets it, on a 1600×1000 screen with no model
// key set (issue 20): a prompt without a key is offered the demo model and
// the secrets editor instead of a terminal command, a long error leaves the
// window inside the screen, a topic opens at its newest turn, and the tree
// sorts names as people read them. Screenshots go to SCREENSHOT_DIR (the
// build tree); window-no-model.png is the user guide's.

#include "composer.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "engine_ready.h"
#include "folder_tree_panel.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "main_window.h"
#include "screenshot.h"
#include "store/store.h"
#include "transcript_view.h"
#include "turn_panel.h"
#include "turn_records/turn_records.h"
#include "turns/model_provider.h"
#include "web_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUuid>
#include <QWebEngineView>

using namespace arizuko;

namespace {

turns::RunnerSettings runnerSettings()
{
    auto settings = turns::RunnerSettings::fromEnvironment();
    if (!settings)
        qFatal("%s", qPrintable(settings.error().message));
    return *settings;
}

// A finished turn of corp/main, `number` giving its order.
turns::TurnRecord endedTurn(int number, turns::TurnState state)
{
    turns::TurnRecord record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.name = QStringLiteral("az-") + record.id.left(8);
    record.folder = QStringLiteral("corp");
    record.topic = QStringLiteral("main");
    record.agent = QStringLiteral("claude");
    record.prompt = QStringLiteral("prompt number %1").arg(number);
    record.state = state;
    record.queuedAt = QStringLiteral("2026-12-01T10:0%1:00.000Z").arg(number);
    return record;
}

// The labels a person can read in `widget`, joined.
QString visibleLabels(const QWidget &widget)
{
    QStringList texts;
    for (const QLabel *label : widget.findChildren<QLabel *>()) {
        if (label->isVisible())
            texts << label->text();
    }
    return texts.join(QLatin1Char('\n'));
}

QStringList rowTexts(const QAbstractItemModel *model, const QModelIndex &parent)
{
    QStringList rows;
    for (int row = 0; row < model->rowCount(parent); ++row)
        rows << model->index(row, 0, parent).data().toString();
    return rows;
}

} // namespace

class NewUserWindowTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;

    void addFolder(const QString &path)
    {
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test")).add(path).ok());
    }
    void addTopic(const QString &folder, const QString &topic)
    {
        QVERIFY(folders::Topics(*m_store, QStringLiteral("user:test")).add(folder, topic).ok());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QRect screen = QGuiApplication::primaryScreen()->geometry();
        QVERIFY2(screen.width() == 1600 && screen.height() == 1000,
                 qPrintable(QStringLiteral("the test needs a 1600x1000 screen, not %1x%2")
                                .arg(screen.width())
                                .arg(screen.height())));
    }
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
        addFolder(QStringLiteral("corp"));
        addTopic(QStringLiteral("corp"), QStringLiteral("main"));
    }
    void cleanup() { m_store.reset(); }

    // No key: the window says so in its own words and offers both fixes.
    void aPromptWithoutAKeyOffersTheDemoModelOrAKey()
    {
        arizuko::engine::Workspace workspace(*m_store);
        desktop::MainWindow window(workspace, runnerSettings());
        QSignalSpy finished(window.engine(), &engine::Engine::turnFinished);
        QSignalSpy queued(window.engine(), &engine::Engine::turnQueued);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(engineIsReady(window));
        QTRY_VERIFY(window.folderTree()->select(QStringLiteral("corp"), QStringLiteral("main")));

        QTest::keyClicks(window.composer()->editor(), QStringLiteral("list the files here"));
        QTest::keyClick(window.composer()->editor(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(finished.wait(30000));
        const auto failed = finished.takeFirst().first().value<turns::TurnRecord>();
        QCOMPARE(failed.errorCode, turns::noCredentialErrorCode);
        const auto *modelChoice = window.findChild<QWidget *>(QStringLiteral("modelChoiceBar"));
        QVERIFY2(modelChoice, "the composer offers no model");
        QTRY_VERIFY(modelChoice->isVisible());

        // Nothing in the window sends a desktop user to a terminal.
        QWebEnginePage *page = window.transcript()->webView()->page();
        QVERIFY(waitForScript(page, QStringLiteral("document.querySelector('.error') !== null")));
        const QString transcript =
            runJavaScript(page, QStringLiteral("document.body.innerText")).toString();
        const QString labels = visibleLabels(window);
        for (const QString &shown : {transcript, labels}) {
            QVERIFY2(!shown.contains(QLatin1String("arizukoctl")), qPrintable(shown));
            QVERIFY2(shown.contains(QLatin1String("No model is set up for this folder")),
                     qPrintable(shown));
        }
        desktop::screenshot(window, QStringLiteral("window-no-model"), 300);

        // "Set an API key…" opens the secrets editor ready for the key.
        auto *setKey = window.findChild<QAbstractButton *>(QStringLiteral("setModelKey"));
        QVERIFY(setKey && setKey->isVisible());
        QTest::mouseClick(setKey, Qt::LeftButton);
        QDialog *editor = nullptr;
        QTRY_VERIFY((editor = window.findChild<QDialog *>(QStringLiteral("secretsEditor"))) &&
                    editor->isVisible());
        QCOMPARE(editor->findChild<QLineEdit *>(QStringLiteral("name"))->text(),
                 turns::apiKeySecret);
        QCOMPARE(editor->findChild<QComboBox *>(QStringLiteral("folder"))->currentData().toString(),
                 QString());
        QTRY_VERIFY(editor->focusWidget() ==
                    editor->findChild<QLineEdit *>(QStringLiteral("value")));
        desktop::screenshot(*editor, QStringLiteral("secrets-editor-for-the-key"), 300);
        editor->close();

        // "Run it on the demo model" sends the same prompt to the demo model:
        // it gets past the model check that failed it at once (its VM is torn
        // down with the window).
        queued.clear();
        finished.clear();
        auto *useDemo = window.findChild<QAbstractButton *>(QStringLiteral("useDemoModel"));
        QTest::mouseClick(useDemo, Qt::LeftButton);
        QVERIFY(queued.wait(10000));
        const auto demo = queued.takeFirst().first().value<turns::TurnRecord>();
        QCOMPARE(demo.prompt, QStringLiteral("list the files here"));
        QVERIFY(!modelChoice->isVisible());
        if (finished.wait(5000)) {
            const auto ended = finished.takeFirst().first().value<turns::TurnRecord>();
            QVERIFY2(ended.errorCode != turns::noCredentialErrorCode, qPrintable(ended.error));
        }
        QVERIFY(!modelChoice->isVisible());
    }

    // A long error (a path with no break, then many words) wraps in the turn
    // panel; the window keeps its width, inside the screen.
    void aLongErrorKeepsTheWindowInsideTheScreen()
    {
        turns::TurnRecord turn = endedTurn(1, turns::TurnState::Failed);
        turns::TurnRecords records(*m_store);
        QVERIFY(records.insert(turn).ok());
        const QString error = QStringLiteral("cannot open /var/lib/") +
                              QString(300, QLatin1Char('x')) + QStringLiteral(": ") +
                              QStringLiteral("the reason goes on and on ").repeated(40);
        QVERIFY(records.setError(turn.id, QStringLiteral("test.long"), error).ok());

        arizuko::engine::Workspace workspace(*m_store);

        desktop::MainWindow window(workspace, runnerSettings());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int width = window.frameGeometry().width();
        const QRect screen = window.screen()->availableGeometry();
        // The tree is read on a worker: the folder is there once it has arrived.
        QTRY_VERIFY(window.folderTree()->select(QStringLiteral("corp"), QStringLiteral("main")));
        auto *facts = window.findChild<QLabel *>(QStringLiteral("turnFacts"));
        QTRY_VERIFY(facts->text().contains(QLatin1String("the reason goes on")));
        QTest::qWait(300); // a layout pass after the text
        desktop::screenshot(window, QStringLiteral("window-long-error"), 300);
        QVERIFY2(window.frameGeometry().width() <= width,
                 qPrintable(QStringLiteral("the window grew from %1 to %2 pixels")
                                .arg(width)
                                .arg(window.frameGeometry().width())));
        QVERIFY2(screen.contains(window.frameGeometry()),
                 qPrintable(QStringLiteral("the window (%1,%2 %3x%4) leaves the screen (%5x%6)")
                                .arg(window.frameGeometry().x())
                                .arg(window.frameGeometry().y())
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(screen.width())
                                .arg(screen.height())));
        // The label wraps in the panel rather than running past it.
        QVERIFY(facts->width() <= window.turnPanel()->width());
    }

    // A topic with several turns opens where its newest turn is.
    void aTopicOpensAtItsNewestTurn()
    {
        turns::TurnRecords records(*m_store);
        for (int number = 1; number <= 3; ++number) {
            const turns::TurnRecord turn = endedTurn(number, turns::TurnState::Done);
            QVERIFY(records.insert(turn).ok());
            QList<turns::TurnEventRecord> events;
            for (int seq = 1; seq <= 30; ++seq)
                events.append(
                    {turn.id, seq, QStringLiteral("text"),
                     QJsonObject{{QStringLiteral("text"),
                                  QStringLiteral("Turn %1, paragraph %2.").arg(number).arg(seq)}},
                     QStringLiteral("2026-12-01T10:00:00.000Z")});
            QVERIFY(records.appendEvents(events).ok());
        }
        addTopic(QStringLiteral("corp"), QStringLiteral("other"));

        arizuko::engine::Workspace workspace(*m_store);

        desktop::MainWindow window(workspace, runnerSettings());
        window.resize(1280, 800);
        QWebEnginePage *page = window.transcript()->webView()->page();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // As a person does: another topic first, then this one.
        QTRY_VERIFY(window.folderTree()->select(QStringLiteral("corp"), QStringLiteral("other")));
        QTRY_VERIFY(window.folderTree()->select(QStringLiteral("corp"), QStringLiteral("main")));
        QVERIFY(waitForScript(
            page, QStringLiteral("document.body.innerText.includes('Turn 3, paragraph 30.')")));
        QTest::qWait(500); // the page settles
        const QString newestInView =
            QStringLiteral("(() => { const all = document.querySelectorAll('.text');"
                           " const last = all[all.length - 1].getBoundingClientRect();"
                           " return last.bottom <= window.innerHeight && last.top >= 0; })()");
        const auto scrolled = [page] {
            return QStringLiteral("scrolled to %1 of %2 pixels")
                .arg(runJavaScript(page, QStringLiteral("window.scrollY")).toInt())
                .arg(runJavaScript(page, QStringLiteral("document.body.scrollHeight")).toInt());
        };
        QVERIFY2(waitForScript(page, newestInView, 3000), qPrintable(scrolled()));
        // The view changes size after it opened (the window is resized, a
        // bar shows above the prompt): the newest turn stays in view.
        window.resize(1280, 560);
        QTest::qWait(500);
        const bool stillAtNewest = waitForScript(page, newestInView, 3000);
        desktop::screenshot(window, QStringLiteral("window-topic-opens-at-newest"), 300);
        QVERIFY2(stillAtNewest, qPrintable(scrolled()));
    }

    // f1, f2, f10, f11, f100 (and topics alike), as people count.
    void theTreeSortsNamesAsPeopleCount()
    {
        for (const char *name : {"f1", "f10", "f100", "f11", "f2"})
            addFolder(QString::fromLatin1(name));
        for (const char *topic : {"t10", "t100", "t20", "t2", "T3"})
            addTopic(QStringLiteral("f1"), QString::fromLatin1(topic));
        arizuko::engine::Workspace workspace(*m_store);
        desktop::MainWindow window(workspace, runnerSettings());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QAbstractItemModel *model = window.folderTree()->view()->model();
        // The tree is read on a worker: compared once it has arrived.
        QTRY_COMPARE(
            rowTexts(model, {}),
            (QStringList{QStringLiteral("corp"), QStringLiteral("f1"), QStringLiteral("f2"),
                         QStringLiteral("f10"), QStringLiteral("f11"), QStringLiteral("f100")}));
        QCOMPARE(rowTexts(model, model->index(1, 0)),
                 (QStringList{QStringLiteral("t2"), QStringLiteral("T3"), QStringLiteral("t10"),
                              QStringLiteral("t20"), QStringLiteral("t100")}));
        desktop::screenshot(window, QStringLiteral("window-tree-natural-order"), 300);
    }
};

QTEST_MAIN(NewUserWindowTest)
#include "test_new_user_window.moc"
