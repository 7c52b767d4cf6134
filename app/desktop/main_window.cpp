#include "main_window.h"

#include "allowlist_editor.h"
#include "audit_log_viewer.h"
#include "changes_panel.h"
#include "composer.h"
#include "connectors_editor.h"
#include "egress_question_bar.h"
#include "engine/engine_impl.h"
#include "engine/workspace.h"
#include "export_dialog.h"
#include "first_run_guide.h"
#include "folder_tree_panel.h"
#include "grants_editor.h"
#include "host_status_panel.h"
#include "import_dialog.h"
#include "models/folder_topic_model.h"
#include "models/turn_list_model.h"
#include "routes_editor.h"
#include "secrets_editor.h"
#include "settings_dialog.h"
#include "transcript_view.h"
#include "turn_panel.h"
#include "turns/model_provider.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTreeView>
#include <QVBoxLayout>

namespace arizuko::desktop {

MainWindow::MainWindow(engine::Workspace &workspace, const turns::RunnerSettings &settings,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_workspace(workspace)
    , m_engine(new engine::EngineImpl(workspace, settings, this))
    , m_treeModel(workspace.make<models::FolderTopicModel>(this))
    , m_tree(new FolderTreePanel(workspace, m_treeModel, this))
    , m_transcript(new TranscriptView(workspace, this))
    , m_composer(new Composer(this))
    , m_questions(new EgressQuestionBar(workspace, this))
    , m_turnPanel(new TurnPanel(workspace, this))
    , m_changes(new ChangesPanel(workspace, this))
    , m_hostStatus(new HostStatusPanel(settings, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_centre(new QSplitter(Qt::Vertical, this))
    , m_tray(new QSystemTrayIcon(this))
    , m_settings(settings)
{
    setWindowTitle(tr("Arizuko Desktop"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/arizuko-desktop.svg")));
    m_turnPanel->addTab(m_changes, tr("C&hanges"));
    m_turnPanel->addTab(m_hostStatus, tr("&Machine"));
    // The question bar sits on the transcript, in the same pane: the
    // splitter's saved sizes stay those of the transcript and the composer.
    auto *conversation = new QWidget(this);
    auto *conversationLayout = new QVBoxLayout(conversation);
    conversationLayout->setContentsMargins(0, 0, 0, 0);
    conversationLayout->addWidget(m_questions);
    conversationLayout->addWidget(m_transcript, 1);
    m_centre->addWidget(conversation);
    m_centre->addWidget(m_composer);
    m_centre->setStretchFactor(0, 1);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_splitter->addWidget(m_tree);
    m_splitter->addWidget(m_centre);
    m_splitter->addWidget(m_turnPanel);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({240, 640, 400});
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    setCentralWidget(m_splitter);
    createMenus();
    createTray();

    m_tree->reload([tree = m_tree] { tree->view()->expandAll(); });
    connect(m_tree, &FolderTreePanel::selectionChanged, this, &MainWindow::onSelection);
    connect(m_tree, &FolderTreePanel::failed, this, &MainWindow::showError);
    connect(m_composer, &Composer::sendRequested, this, &MainWindow::send);
    connect(m_composer, &Composer::cancelRequested, this, &MainWindow::cancelRunningTurn);
    connect(m_composer, &Composer::demoModelRequested, this,
            &MainWindow::runFailedPromptOnDemoModel);
    connect(m_composer, &Composer::modelKeyRequested, this, &MainWindow::setModelKey);
    // The composer offers the agents the image carries; an image that cannot
    // be read leaves the offer as it was.
    connect(m_hostStatus, &HostStatusPanel::refreshed, m_composer,
            [composer = m_composer](const host::HostStatus &status) {
                if (!status.guestImage.present)
                    return;
                QStringList names;
                for (const host::GuestAgent &agent : status.guestImage.agents)
                    names << agent.name;
                composer->offerAgents(names);
            });
    connect(m_turnPanel, &TurnPanel::ruleFailed, this, &MainWindow::showError);
    // A request waits for the user: the bar above the transcript, and the
    // window's desktop notification while the person looks elsewhere (the
    // tray icon's showMessage, as for a denied host: it never takes the
    // focus, and needs nothing the window does not already have).
    connect(m_questions, &EgressQuestionBar::questionArrived, this, &MainWindow::notify);
    connect(m_questions, &EgressQuestionBar::answerFailed, this, &MainWindow::showError);
    connect(m_turnPanel, &TurnPanel::ruleAdded, this,
            [this](const QString &folder, const QString &host) {
                statusBar()->showMessage(
                    tr("Allowed %1 for %2 from its next turn").arg(host, folder), 10000);
            });

    // What any process changed in the tree; what another process changed in
    // the turns (this one's engine reports its own, below).
    const auto reloadTree = [tree = m_tree] { tree->reload(); };
    connect(&m_workspace, &engine::Workspace::foldersChanged, m_treeModel, reloadTree);
    connect(&m_workspace, &engine::Workspace::topicsChanged, m_treeModel, reloadTree);
    connect(&m_workspace, &engine::Workspace::turnsChanged, m_treeModel, reloadTree);
    connect(&m_workspace, &engine::Workspace::turnsChanged, this,
            &MainWindow::refreshTopicActivity);

    connect(m_engine, &engine::Engine::ready, this,
            [this](const host::AcceleratorChoice &accelerator, const turns::ReapReport &reaped) {
                // arizukoctl prints these; the window logs them.
                for (const QString &orphan : reaped.leftBehind)
                    qWarning("left behind, could not be removed: %s", qPrintable(orphan));
                m_turnPanel->setAccelerator(accelerator);
                // Turns a dead engine left running are interrupted now, by
                // this process's own store, which the watcher does not
                // report: read the tree and the topic's activity again.
                if (!reaped.interruptedTurns.isEmpty()) {
                    m_tree->reload();
                    refreshTopicActivity();
                }
                // Warm start: the selected folder's next turn, booted ahead.
                if (!m_transcript->folder().isEmpty())
                    m_engine->suggestSpare(m_transcript->folder());
                statusBar()->showMessage(
                    tr("Engine ready: turns run under %1")
                        .arg(host::acceleratorName(accelerator.accelerator).toUpper()));
            });
    connect(m_engine, &engine::Engine::failed, this, [this](const Error &error) {
        statusBar()->showMessage(tr("The engine cannot run turns: %1").arg(error.message));
    });
    connect(m_engine, &engine::Engine::requestFailed, this, &MainWindow::showError);
    connect(m_engine, &engine::Engine::turnQueued, this, &MainWindow::onTurnQueued);
    connect(m_engine, &engine::Engine::turnPhaseChanged, this, &MainWindow::refreshTray);
    connect(m_engine, &engine::Engine::turnPhaseChanged, m_turnPanel, &TurnPanel::updateTurn);
    // A queued turn starting changes the tree's mark and the composer's count.
    connect(m_engine, &engine::Engine::turnPhaseChanged, this,
            [this](const turns::TurnRecord &turn) {
                m_tree->reload();
                if (turn.folder == m_transcript->folder() && turn.topic == m_transcript->topic())
                    refreshTopicActivity();
            });
    connect(m_engine, &engine::Engine::turnEvents, this,
            [this](const QString &, const QList<turns::TurnEventRecord> &events) {
                m_transcript->addEvents(events);
                m_turnPanel->addEvents(events);
            });
    connect(m_engine, &engine::Engine::turnNetworkDecision, this, &MainWindow::onNetworkDecision);
    connect(m_engine, &engine::Engine::turnChangesRecorded, m_changes,
            &ChangesPanel::changesRecorded);
    connect(m_engine, &engine::Engine::turnChangesRecorded, m_transcript,
            &TranscriptView::changesRecorded);
    connect(m_engine, &engine::Engine::turnFinished, this, &MainWindow::onTurnFinished);
    // The window's engine outlives its turns: it may keep a spare.
    m_engine->setKeepsSpares(true);
    statusBar()->showMessage(tr("Starting the engine\u2026"));
    m_engine->start();
    m_hostStatus->refresh();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::showFirstRunGuide()
{
    auto *guide = new FirstRunGuide(m_workspace, m_settings, this);
    guide->setAttribute(Qt::WA_DeleteOnClose);
    connect(guide, &FirstRunGuide::secretsEditorRequested, this, &MainWindow::openSecrets);
    connect(guide, &FirstRunGuide::demoTurnRequested, this, &MainWindow::runDemoTurn);
    guide->show();
}

void MainWindow::runDemoTurn(const QString &folder, const QString &topic)
{
    m_tree->reload([this, folder, topic] {
        m_tree->view()->expandAll();
        m_tree->select(folder, topic);
    });
    submitOnDemoModel(folder, topic, tr("Show me what you can do in this sandbox."));
}

void MainWindow::submitOnDemoModel(const QString &folder, const QString &topic,
                                   const QString &prompt)
{
    turns::TurnRequest request;
    request.folder = folder;
    request.topic = topic;
    request.agent = turns::defaultAgentKind();
    request.prompt = prompt;
    request.demoModel = true;
    m_engine->submit(request);
}

void MainWindow::runFailedPromptOnDemoModel()
{
    if (m_modelless.id.isEmpty())
        return;
    const turns::TurnRecord failed = std::exchange(m_modelless, {});
    m_composer->offerModelChoice(false);
    submitOnDemoModel(failed.folder, failed.topic, failed.prompt);
}

void MainWindow::setModelKey()
{
    // A key for every folder: what a person setting up means by "a key".
    // The editor lets them narrow it to one folder.
    openSecretsEditor(QString())->prepareFor(turns::apiKeySecret);
}

void MainWindow::openSecrets()
{
    openSecretsEditor(m_tree->currentFolder());
}

SecretsEditor *MainWindow::openSecretsEditor(const QString &folder)
{
    auto *editor = new SecretsEditor(m_workspace, folder, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    editor->show();
    return editor;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    for (QAction *action : m_tree->editActions())
        file->addAction(action);
    file->addSeparator();
    QAction *exportAction = file->addAction(tr("&Export to arizuko\u2026"), this, [this] {
        auto *dialog = new ExportDialog(m_workspace, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    exportAction->setObjectName(QStringLiteral("exportToArizuko"));
    QAction *importAction = file->addAction(tr("&Import from arizuko\u2026"), this, [this] {
        auto *dialog = new ImportDialog(m_workspace, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    importAction->setObjectName(QStringLiteral("importFromArizuko"));
    QAction *settingsAction = file->addAction(tr("S&ettings\u2026"), this, [this] {
        auto *dialog = new SettingsDialog(m_workspace, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &SettingsDialog::secretsEditorRequested, this, &MainWindow::openSecrets);
        dialog->show();
    });
    settingsAction->setObjectName(QStringLiteral("openSettings"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *find = edit->addAction(tr("&Find in transcript\u2026"), m_transcript,
                                    &TranscriptView::showFindBar);
    find->setObjectName(QStringLiteral("findInTranscript"));
    find->setShortcut(QKeySequence::Find);
    QAction *copy = edit->addAction(tr("&Copy transcript as Markdown"), m_transcript,
                                    &TranscriptView::copyAsMarkdown);
    copy->setObjectName(QStringLiteral("copyTranscript"));
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));

    // The policy editors: non-modal, several may be open beside the transcript.
    QMenu *folder = menuBar()->addMenu(tr("F&older"));
    QAction *allowlist = folder->addAction(tr("&Allowlist\u2026"), this, [this] {
        auto *editor = new AllowlistEditor(m_workspace, m_tree->currentFolder(), this);
        editor->setAttribute(Qt::WA_DeleteOnClose);
        editor->show();
    });
    allowlist->setObjectName(QStringLiteral("openAllowlist"));
    allowlist->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    QAction *grants = folder->addAction(tr("&Grants\u2026"), this, [this] {
        auto *editor = new GrantsEditor(m_workspace, m_tree->currentFolder(), this);
        editor->setAttribute(Qt::WA_DeleteOnClose);
        editor->show();
    });
    grants->setObjectName(QStringLiteral("openGrants"));
    grants->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    QAction *secrets = folder->addAction(tr("&Secrets\u2026"), this, &MainWindow::openSecrets);
    secrets->setObjectName(QStringLiteral("openSecrets"));
    QAction *connectorsAction = folder->addAction(tr("&Connectors\u2026"), this, [this] {
        auto *editor = new ConnectorsEditor(m_workspace, *m_engine, m_tree->currentFolder(), this);
        editor->setAttribute(Qt::WA_DeleteOnClose);
        connect(editor, &ConnectorsEditor::secretsEditorRequested, this,
                [this](const QString &folder, const QString &name) {
                    openSecretsEditor(folder)->prepareFor(name);
                });
        editor->show();
    });
    connectorsAction->setObjectName(QStringLiteral("openConnectors"));
    connectorsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction *routes = folder->addAction(tr("&Routes\u2026"), this, [this] {
        auto *editor = new RoutesEditor(m_workspace, this);
        editor->setAttribute(Qt::WA_DeleteOnClose);
        editor->show();
    });
    routes->setObjectName(QStringLiteral("openRoutes"));
    folder->addSeparator();
    QAction *audit = folder->addAction(tr("Audit &log\u2026"), this, [this] {
        auto *viewer = new AuditLogViewer(m_workspace, m_tree->currentFolder(), this);
        viewer->setAttribute(Qt::WA_DeleteOnClose);
        viewer->show();
    });
    audit->setObjectName(QStringLiteral("openAuditLog"));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *tree =
        view->addAction(tr("Go to &folders"), this, [this] { m_tree->view()->setFocus(); });
    tree->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction *filter =
        view->addAction(tr("F&ilter folders"), this, [this] { m_tree->filter()->setFocus(); });
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    QAction *prompt =
        view->addAction(tr("Go to &prompt"), this, [this] { m_composer->editor()->setFocus(); });
    prompt->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction *refresh = view->addAction(tr("&Check this machine again"), m_hostStatus,
                                       &HostStatusPanel::refresh);
    refresh->setObjectName(QStringLiteral("refreshHostStatus"));
    refresh->setShortcut(QKeySequence::Refresh);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *firstRun =
        help->addAction(tr("&First-run guide\u2026"), this, &MainWindow::showFirstRunGuide);
    firstRun->setObjectName(QStringLiteral("openFirstRunGuide"));
    help->addAction(tr("&About Arizuko Desktop"), this, [this] {
        QMessageBox::about(this, tr("About Arizuko Desktop"),
                           tr("<p><b>Arizuko Desktop %1</b></p>"
                              "<p>Runs AI coding agents on this machine without trusting them: "
                              "every turn in its own throw-away virtual machine whose only way "
                              "out is a proxy that allows a fixed list of hosts.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createTray()
{
    m_tray->setIcon(windowIcon());
    auto *menu = new QMenu(this);
    menu->addAction(tr("&Show window"), this, [this] {
        showNormal();
        activateWindow();
    });
    menu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    m_tray->setContextMenu(menu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this] {
        showNormal();
        activateWindow();
    });
    refreshTray();
    if (QSystemTrayIcon::isSystemTrayAvailable())
        m_tray->show();
}

void MainWindow::refreshTray()
{
    QStringList busy;
    for (const turns::TurnRecord &turn : m_engine->liveTurns())
        busy << QStringLiteral("%1/%2: %3")
                    .arg(turn.folder, turn.topic, models::turnStateText(turn.state));
    m_tray->setToolTip(busy.isEmpty()
                           ? tr("Arizuko Desktop: no turn running")
                           : tr("Arizuko Desktop\n%1").arg(busy.join(QLatin1Char('\n'))));
}

void MainWindow::restoreLayout()
{
    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    m_centre->restoreState(settings.value(QStringLiteral("window/centre")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("window/centre"), m_centre->saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::onSelection(const QString &folder, const QString &topic)
{
    m_transcript->showTopic(folder, topic);
    m_composer->setTopic(folder, topic);
    // The next prompt is likely here: warm start boots its guest once the
    // user stays on the folder (a click through the tree boots none).
    if (!folder.isEmpty())
        m_engine->suggestSpare(folder);
    refreshTopicActivity();
}

void MainWindow::refreshTopicActivity()
{
    const QString folder = m_transcript->folder();
    const QString topic = m_transcript->topic();
    if (folder.isEmpty() || topic.isEmpty()) {
        ++m_activityReading;
        m_turnPanel->showTurn({});
        m_changes->showTurn({});
        m_composer->setActivity(false, 0);
        m_modelless = {};
        m_composer->offerModelChoice(false);
        return;
    }
    // Read on a worker; only the answer to the last question is shown.
    const quint64 reading = ++m_activityReading;
    m_workspace.topicActivity(
        folder, topic, this, [this, reading](const Result<turns::TopicActivity> &activity) {
            if (!activity || reading != m_activityReading)
                return;
            m_composer->setActivity(activity->running, activity->queued);
            const turns::TurnRecord &latest = activity->latest;
            m_turnPanel->showTurn(latest);
            m_changes->showTurn(latest);
            const bool modelless = latest.state == turns::TurnState::Failed &&
                                   latest.errorCode == turns::noCredentialErrorCode;
            m_modelless = modelless ? latest : turns::TurnRecord{};
            m_composer->offerModelChoice(modelless);
        });
}

void MainWindow::send(const QString &prompt)
{
    turns::TurnRequest request;
    request.folder = m_transcript->folder();
    request.topic = m_transcript->topic();
    request.agent =
        turns::agentKindFromName(m_composer->agent()).value_or(turns::defaultAgentKind());
    request.prompt = prompt;
    request.model = m_composer->model();
    m_engine->submit(request);
}

void MainWindow::cancelRunningTurn()
{
    for (const turns::TurnRecord &turn : m_engine->liveTurns()) {
        if (turn.folder == m_transcript->folder() && turn.topic == m_transcript->topic()) {
            m_engine->cancel(turn.id);
            return;
        }
    }
}

void MainWindow::onTurnQueued(const turns::TurnRecord &turn)
{
    m_transcript->addTurn(turn);
    refreshTray();
    m_tree->reload();
    refreshTopicActivity();
}

void MainWindow::onTurnFinished(const turns::TurnRecord &turn)
{
    m_transcript->endTurn(turn);
    refreshTray();
    m_tree->reload();
    refreshTopicActivity();
    notify(tr("Turn %1").arg(models::turnStateText(turn.state)),
           tr("%1 in %2/%3").arg(turn.name, turn.folder, turn.topic));
}

void MainWindow::onNetworkDecision(const turns::TurnRecord &turn, const QJsonObject &decision)
{
    if (decision.value(QStringLiteral("event")).toString() != QLatin1String("decision") ||
        decision.value(QStringLiteral("decision")).toString() == QLatin1String("allow"))
        return;
    notify(tr("Host denied"),
           tr("%1 was refused %2 (%3)")
               .arg(turn.folder, decision.value(QStringLiteral("host")).toString(),
                    decision.value(QStringLiteral("reason")).toString()));
}

void MainWindow::notify(const QString &title, const QString &message)
{
    // Only while the person looks elsewhere; the window itself shows it.
    if (isActiveWindow())
        return;
    m_tray->showMessage(title, message, QSystemTrayIcon::Information, 8000);
    emit notified(title, message);
}

void MainWindow::showError(const QString &message)
{
    statusBar()->showMessage(message, 15000);
    QMessageBox::warning(this, tr("Arizuko Desktop"), message);
}

} // namespace arizuko::desktop
