// The window's widgets without a VM: the composer's keys, the tree's filter
// and its live view of the store, renaming, moving (also by a drop) and
// removing from the tree after a confirmation, the tray icon's tooltip and
// notifications, and an accessible name on every control.

#include "composer.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "folder_tree_panel.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "main_window.h"
#include "models/folder_topic_model.h"
#include "secrets/secret_store.h"
#include "store/store.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <memory>

using namespace arizuko;

namespace {

// Answers the modal dialog named `name` once it is open (the panel's
// dialogs run their own event loop, so the test answers from a timer).
// The flag turns true once the answer was given.
template<typename Answer>
std::shared_ptr<bool> whenOpen(QObject *context, const QString &name, Answer answer)
{
    auto answered = std::make_shared<bool>(false);
    auto *poll = new QTimer(context);
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, context, [poll, name, answer, answered] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal || modal->objectName() != name)
            return;
        poll->stop();
        poll->deleteLater();
        answer(modal);
        *answered = true;
    });
    poll->start();
    return answered;
}

void answerText(QObject *context, const QString &name, const QString &text)
{
    whenOpen(context, name, [text](QWidget *dialog) {
        auto *input = qobject_cast<QInputDialog *>(dialog);
        input->setTextValue(text);
        input->accept();
    });
}

QAction *action(desktop::FolderTreePanel &panel, const QString &name)
{
    for (QAction *each : panel.editActions()) {
        if (each->objectName() == name)
            return each;
    }
    qFatal("no action %s", qPrintable(name));
}

} // namespace

class WindowWidgetsTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The test user's home outlives a run: a model remembered by the last
        // run would be read as this run's.
        QSettings().clear();
    }
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
    }
    void cleanup() { m_store.reset(); }

    void composerSendsWithCtrlEnterAndCancelsWithEscape()
    {
        desktop::Composer composer;
        QSignalSpy sent(&composer, &desktop::Composer::sendRequested);
        QSignalSpy cancelled(&composer, &desktop::Composer::cancelRequested);
        QVERIFY(!composer.editor()->isEnabled());
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(composer.editor()->isEnabled());

        QTest::keyClicks(composer.editor(), QStringLiteral("first line"));
        QTest::keyClick(composer.editor(), Qt::Key_Return); // a plain Enter is a new line
        QTest::keyClicks(composer.editor(), QStringLiteral("second line"));
        QCOMPARE(sent.count(), 0);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.count(), 1);
        QCOMPARE(sent.first().first().toString(), QStringLiteral("first line\nsecond line"));
        QCOMPARE(composer.editor()->toPlainText(), QString());

        // Esc cancels only while there is something to cancel.
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.count(), 0);
        composer.setActivity(true, 2);
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(composer.findChild<QLabel *>(QStringLiteral("queuedIndicator"))->text(),
                 QStringLiteral("2 prompt(s) queued"));

        // The agent and model are remembered per topic.
        composer.findChild<QComboBox *>(QStringLiteral("composerAgent"))->setCurrentIndex(1);
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("other"));
        QCOMPARE(composer.agent(), QStringLiteral("claude"));
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QCOMPARE(composer.agent(), QStringLiteral("command"));
    }

    void composerOffersOnlyTheAgentsTheImageCarries()
    {
        desktop::Composer composer;
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("agents"));
        auto *agents = composer.findChild<QComboBox *>(QStringLiteral("composerAgent"));
        const auto offered = [agents] {
            QStringList names;
            for (int index = 0; index < agents->count(); ++index)
                names << agents->itemData(index).toString();
            return names;
        };
        QCOMPARE(offered(), (QStringList{QStringLiteral("claude"), QStringLiteral("command")}));
        // An image built with --agents codex,pi has no Claude Code.
        composer.offerAgents({QStringLiteral("codex"), QStringLiteral("pi")});
        QCOMPARE(offered(), (QStringList{QStringLiteral("codex"), QStringLiteral("pi"),
                                         QStringLiteral("command")}));
        QCOMPARE(composer.agent(), QStringLiteral("codex"));
        composer.offerAgents({QStringLiteral("claude"), QStringLiteral("codex")});
        QCOMPARE(offered(), (QStringList{QStringLiteral("claude"), QStringLiteral("codex"),
                                         QStringLiteral("command")}));
        // The topic's own choice comes back with the offer.
        QCOMPARE(composer.agent(), QStringLiteral("claude"));
    }

    // Each agent has its own model names: the topic keeps one per agent.
    // pi has no MCP, and the composer says so while pi is chosen.
    void composerKeepsAModelPerAgentAndSaysPiHasNoMcp()
    {
        desktop::Composer composer;
        composer.offerAgents(
            {QStringLiteral("claude"), QStringLiteral("codex"), QStringLiteral("pi")});
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("models"));
        auto *agents = composer.findChild<QComboBox *>(QStringLiteral("composerAgent"));
        auto *model = composer.findChild<QLineEdit *>(QStringLiteral("composerModel"));
        auto *note = composer.findChild<QLabel *>(QStringLiteral("composerAgentNote"));
        const auto choose = [agents](const char *name) {
            agents->setCurrentIndex(agents->findData(QString::fromLatin1(name)));
        };
        choose("claude");
        model->setText(QStringLiteral("claude-sonnet-4-5"));
        emit model->editingFinished();
        choose("codex");
        QCOMPARE(model->text(), QString());
        model->setText(QStringLiteral("gpt-5.2"));
        choose("pi");
        QVERIFY(!note->isHidden());
        QVERIFY(note->text().contains(QStringLiteral("no MCP")));
        choose("claude");
        QVERIFY(note->isHidden());
        QCOMPARE(model->text(), QStringLiteral("claude-sonnet-4-5"));
        choose("codex");
        QCOMPARE(model->text(), QStringLiteral("gpt-5.2"));
        QCOMPARE(composer.model(), QStringLiteral("gpt-5.2"));
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("other-models"));
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("models"));
        QCOMPARE(composer.agent(), QStringLiteral("codex"));
        QCOMPARE(model->text(), QStringLiteral("gpt-5.2"));
    }

    void treeFiltersAndFollowsTheStore()
    {
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        folders::Topics topics(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")).ok());
        QVERIFY(folders.add(QStringLiteral("home")).ok());
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("release-notes")).ok());
        QVERIFY(topics.add(QStringLiteral("home"), QStringLiteral("garden")).ok());
        arizuko::engine::Workspace workspace(*m_store);
        auto *model = workspace.make<models::FolderTopicModel>(&workspace);
        desktop::FolderTreePanel panel(workspace, model);
        QSignalSpy selected(&panel, &desktop::FolderTreePanel::selectionChanged);
        QSignalSpy reloaded(model, &models::FolderTopicModel::reloaded);
        panel.reload();
        QVERIFY(reloaded.wait(10000));
        QCOMPARE(panel.view()->model()->rowCount(), 2);

        QTest::keyClicks(panel.filter(), QStringLiteral("release"));
        QCOMPARE(panel.view()->model()->rowCount(), 1); // corp, kept for its topic
        panel.filter()->clear();
        QCOMPARE(panel.view()->model()->rowCount(), 2);

        QVERIFY(panel.select(QStringLiteral("home"), QStringLiteral("garden")));
        QCOMPARE(selected.last(), (QVariantList{QStringLiteral("home"), QStringLiteral("garden")}));
        // A topic added elsewhere appears without losing the selection.
        QVERIFY(topics.add(QStringLiteral("home"), QStringLiteral("attic")).ok());
        panel.reload();
        QVERIFY(reloaded.wait(10000));
        QVERIFY(model->topicIndex(QStringLiteral("home"), QStringLiteral("attic")).isValid());
        QCOMPARE(panel.currentTopic(), QStringLiteral("garden"));
    }

    void treeRenamesMovesAndRemovesAfterAsking()
    {
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        folders::Topics topics(*m_store, QStringLiteral("user:test"));
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "x"})
            QVERIFY(folders.add(QLatin1String(folder)).ok());
        QVERIFY(topics.add(QStringLiteral("corp/eng"), QStringLiteral("main")).ok());
        // A secret sealed to a folder that moves is re-sealed to its new place.
        qputenv("ARIZUKO_KEY_STORE", "file");
        auto secretStore = secrets::SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(secretStore.ok());
        QVERIFY(
            (*secretStore)->set({QStringLiteral("corp/eng/sre")}, QStringLiteral("TOKEN"), "v1"));
        arizuko::engine::Workspace workspace(*m_store);
        auto *model = workspace.make<models::FolderTopicModel>(&workspace);
        desktop::FolderTreePanel panel(workspace, model);
        QSignalSpy reloaded(model, &models::FolderTopicModel::reloaded);
        panel.reload();
        QVERIFY(reloaded.wait(10000));
        panel.show();
        QSignalSpy changed(&panel, &desktop::FolderTreePanel::changed);
        QSignalSpy failed(&panel, &desktop::FolderTreePanel::failed);
        const auto exists = [&folders](const char *path) {
            return *folders.exists(QLatin1String(path));
        };

        // F2 on a folder renames its last segment; the confirmation lists
        // every folder that goes with it.
        QVERIFY(panel.select(QStringLiteral("corp/eng")));
        answerText(this, QStringLiteral("renameFolderDialog"), QStringLiteral("platform"));
        QString shown;
        whenOpen(this, QStringLiteral("moveFolderConfirmation"), [&shown](QWidget *dialog) {
            auto *box = qobject_cast<QMessageBox *>(dialog);
            shown = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        action(panel, QStringLiteral("renameSelected"))->trigger();
        QVERIFY(changed.wait(10000));
        QVERIFY2(shown.contains(QStringLiteral("corp/eng \u2192 corp/platform")) &&
                     shown.contains(QStringLiteral("corp/eng/sre \u2192 corp/platform/sre")) &&
                     shown.contains(QStringLiteral("1 topic")),
                 qPrintable(shown));
        QVERIFY(exists("corp/platform/sre") && !exists("corp/eng"));
        QCOMPARE(panel.currentFolder(), QStringLiteral("corp/platform"));
        QCOMPARE((*secretStore)
                     ->get({QStringLiteral("corp/platform/sre")}, QStringLiteral("TOKEN"))
                     .value(),
                 QByteArray("v1"));

        // A drop of a folder onto another, as the view delivers it: asked
        // first; Cancel leaves everything, Yes moves it under the target.
        QAbstractItemModel *view = panel.view()->model();
        const auto indexOf = [&panel, view](const QString &folder) {
            panel.select(folder);
            return panel.view()->currentIndex();
        };
        const auto drop = [&](const QString &from, const QString &onto) {
            std::unique_ptr<QMimeData> data(view->mimeData({indexOf(from)}));
            QVERIFY(data);
            QVERIFY(view->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, indexOf(onto)));
            QVERIFY(!view->dropMimeData(data.get(), Qt::MoveAction, -1, -1, indexOf(onto)));
        };
        const auto cancelled =
            whenOpen(this, QStringLiteral("moveFolderConfirmation"), [](QWidget *dialog) {
                qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Cancel)->click();
            });
        drop(QStringLiteral("corp/platform"), QStringLiteral("x"));
        // Cancel returns before anything is moved: once the question is
        // answered and closed, nothing more comes.
        QTRY_VERIFY_WITH_TIMEOUT(*cancelled && !QApplication::activeModalWidget(), 10000);
        QVERIFY(exists("corp/platform") && !exists("x/platform"));
        whenOpen(this, QStringLiteral("moveFolderConfirmation"), [](QWidget *dialog) {
            qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Yes)->click();
        });
        drop(QStringLiteral("corp/platform"), QStringLiteral("x"));
        QVERIFY(changed.wait(10000));
        QVERIFY(exists("x/platform/sre") && !exists("corp/platform"));
        // A topic cannot be dragged.
        QVERIFY(panel.select(QStringLiteral("x/platform"), QStringLiteral("main")));
        QVERIFY(!(view->flags(panel.view()->currentIndex()) & Qt::ItemIsDragEnabled));

        // A running turn refuses the move, and says so.
        QSqlQuery running(m_store->database());
        QVERIFY(running.exec(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES "
            "('t1', 'az-t1', 'x/platform', 'main', 'claude', 'p', 'running', 'now')")));
        QVERIFY(panel.select(QStringLiteral("x/platform")));
        answerText(this, QStringLiteral("moveFolderDialog"), QStringLiteral("corp/platform"));
        whenOpen(this, QStringLiteral("moveFolderConfirmation"), [](QWidget *dialog) {
            qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Yes)->click();
        });
        action(panel, QStringLiteral("moveFolder"))->trigger();
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.last().first().toString().contains(QStringLiteral("running")),
                 qPrintable(failed.last().first().toString()));
        QVERIFY(exists("x/platform"));

        // Del on a topic removes it after asking (not while a turn runs).
        QVERIFY(running.exec(QStringLiteral("UPDATE turns SET state = 'done'")));
        QVERIFY(panel.select(QStringLiteral("x/platform"), QStringLiteral("main")));
        whenOpen(this, QStringLiteral("removeTopicConfirmation"), [](QWidget *dialog) {
            qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Yes)->click();
        });
        action(panel, QStringLiteral("removeSelected"))->trigger();
        QVERIFY(changed.wait(10000));
        QVERIFY(topics.list(QStringLiteral("x/platform"))->isEmpty());
        QCOMPARE(panel.currentFolder(), QStringLiteral("x/platform"));

        // Del on a folder removes it, its subfolders and its home after asking.
        const QString platformHome = *folders.homePath(QStringLiteral("x/platform"));
        QVERIFY(QFileInfo(platformHome).isDir());
        whenOpen(this, QStringLiteral("removeFolderConfirmation"), [](QWidget *dialog) {
            qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Yes)->click();
        });
        action(panel, QStringLiteral("removeSelected"))->trigger();
        QVERIFY(changed.wait(10000));
        QVERIFY(!exists("x/platform") && !exists("x/platform/sre") && exists("x"));
        QVERIFY(!QFileInfo::exists(platformHome));
        QCOMPARE(panel.currentFolder(), QStringLiteral("x"));

        // A new folder, a topic in it, the topic renamed: each shown selected.
        // (The input dialogs the panel asks with carry no name.)
        answerText(this, QString(), QStringLiteral("x/new"));
        action(panel, QStringLiteral("addFolder"))->trigger();
        QVERIFY(changed.wait(10000));
        QVERIFY(exists("x/new"));
        QCOMPARE(panel.currentFolder(), QStringLiteral("x/new"));
        answerText(this, QString(), QStringLiteral("ideas"));
        action(panel, QStringLiteral("addTopic"))->trigger();
        QVERIFY(changed.wait(10000));
        QCOMPARE(panel.currentTopic(), QStringLiteral("ideas"));
        answerText(this, QStringLiteral("renameTopicDialog"), QStringLiteral("plans"));
        action(panel, QStringLiteral("renameSelected"))->trigger();
        QVERIFY(changed.wait(10000));
        QCOMPARE(panel.currentTopic(), QStringLiteral("plans"));
        QCOMPARE(topics.list(QStringLiteral("x/new"))->size(), 1);
        // A folder that exists is refused, and the refusal says so.
        answerText(this, QString(), QStringLiteral("x/new"));
        action(panel, QStringLiteral("addFolder"))->trigger();
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.last().first().toString().contains(QStringLiteral("x/new")),
                 qPrintable(failed.last().first().toString()));
    }

    void trayListsRunningTurnsAndNotifiesOnlyWhenTheWindowIsNotInFront()
    {
        // The window as the engine thread reports to it (the reports are
        // emitted here as the engine thread's relay would): no VM needed.
        // There is no system tray under Xvfb (no XEmbed tray host is
        // packaged here), so the icon is never shown; what is checked is
        // its tooltip and what the window sends to it.
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        settings->libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock");
        arizuko::engine::Workspace workspace(*m_store);
        desktop::MainWindow window(workspace, *settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy notified(&window, &desktop::MainWindow::notified);
        QSystemTrayIcon *tray = window.trayIcon();
        QCOMPARE(tray->toolTip(), QStringLiteral("Arizuko Desktop: no turn running"));

        // Another window in front: the person looks elsewhere.
        QWidget elsewhere;
        elsewhere.show();
        elsewhere.activateWindow();
        QTRY_VERIFY(elsewhere.isActiveWindow());
        QVERIFY(!window.isActiveWindow());

        turns::TurnRecord turn;
        turn.id = QStringLiteral("11111111-0000-0000-0000-000000000000");
        turn.name = QStringLiteral("az-11111111");
        turn.folder = QStringLiteral("corp");
        turn.topic = QStringLiteral("demo");
        engine::Engine *engine = window.engine();
        emit engine->turnQueued(turn);
        turn.state = turns::TurnState::Running;
        emit engine->turnPhaseChanged(turn);
        QVERIFY(tray->toolTip().startsWith(QStringLiteral("Arizuko Desktop\ncorp/demo: ")));
        QCOMPARE(notified.count(), 0);

        emit engine->turnNetworkDecision(
            turn, QJsonObject{{QStringLiteral("event"), QStringLiteral("decision")},
                              {QStringLiteral("decision"), QStringLiteral("deny")},
                              {QStringLiteral("host"), QStringLiteral("evil.example")},
                              {QStringLiteral("reason"), QStringLiteral("not allowed")}});
        QCOMPARE(notified.count(), 1);
        QCOMPARE(notified.last().at(0).toString(), QStringLiteral("Host denied"));
        QVERIFY(notified.last().at(1).toString().contains(QStringLiteral("evil.example")));
        // An allowed host is no news.
        emit engine->turnNetworkDecision(
            turn, QJsonObject{{QStringLiteral("event"), QStringLiteral("decision")},
                              {QStringLiteral("decision"), QStringLiteral("allow")},
                              {QStringLiteral("host"), QStringLiteral("example.org")}});
        QCOMPARE(notified.count(), 1);

        turn.state = turns::TurnState::Done;
        emit engine->turnFinished(turn);
        QCOMPARE(notified.count(), 2);
        QCOMPARE(notified.last().at(0).toString(), QStringLiteral("Turn done"));
        QVERIFY(notified.last().at(1).toString().contains(QStringLiteral("corp/demo")));

        // With the window in front, the window itself shows it: no notification.
        window.activateWindow();
        QTRY_VERIFY(window.isActiveWindow());
        emit engine->turnFinished(turn);
        QCOMPARE(notified.count(), 2);
    }

    void everyControlHasAnAccessibleName()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        settings->libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock");
        arizuko::engine::Workspace workspace(*m_store);
        desktop::MainWindow window(workspace, *settings);
        QStringList unnamed;
        for (QWidget *widget : window.findChildren<QWidget *>()) {
            const bool control =
                qobject_cast<QAbstractButton *>(widget) || qobject_cast<QLineEdit *>(widget) ||
                qobject_cast<QComboBox *>(widget) || qobject_cast<QPlainTextEdit *>(widget) ||
                qobject_cast<QAbstractItemView *>(widget);
            // Buttons are named by their text; the rest need an accessible name.
            const auto *button = qobject_cast<QAbstractButton *>(widget);
            if (!control || (button && !button->text().isEmpty()) ||
                !widget->accessibleName().isEmpty())
                continue;
            // Qt's own parts of composite widgets (headers and the corner
            // button of a view, the clear button of a line edit, …).
            if (widget->objectName().startsWith(QLatin1String("qt_")) ||
                qobject_cast<QComboBox *>(widget->parentWidget()) ||
                qobject_cast<QAbstractItemView *>(widget->parentWidget()) ||
                qobject_cast<QLineEdit *>(widget->parentWidget()) ||
                widget->parentWidget()->inherits("QTabBar") ||
                widget->parentWidget()->inherits("QToolBar"))
                continue;
            unnamed << QStringLiteral("%1 %2").arg(
                QString::fromLatin1(widget->metaObject()->className()), widget->objectName());
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("arizuko-tests"));
    WindowWidgetsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_window_widgets.moc"
