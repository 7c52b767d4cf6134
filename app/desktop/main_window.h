#pragma once

// The application window: folders and topics on the left, the selected
// topic's transcript and the composer in the middle, its latest turn (phases,
// VM, network, console, and the machine check) on the right. Owns the
// engine for this process (an EngineImpl: the turn runner on a thread of
// its own, engine/engine/engine_impl.h); reaches the stored configuration
// through the Workspace start-up hands it (engine/engine/workspace.h).

#include "turn_records/turn_record.h"
#include "turns/runner_settings.h"

#include <QMainWindow>
#include <QPointer>

class QSplitter;
class QSystemTrayIcon;

namespace arizuko::models {
class FolderTopicModel;
}
namespace arizuko::engine {
class Engine;
class Workspace;
}

namespace arizuko::desktop {

class ChangesPanel;
class Composer;
class EgressQuestionBar;
class FolderTreePanel;
class HostStatusPanel;
class SecretsEditor;
class TranscriptView;
class TurnPanel;

class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(engine::Workspace &workspace, const turns::RunnerSettings &settings,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    HostStatusPanel *hostStatusPanel() const { return m_hostStatus; }
    FolderTreePanel *folderTree() const { return m_tree; }
    TranscriptView *transcript() const { return m_transcript; }
    Composer *composer() const { return m_composer; }
    EgressQuestionBar *questionBar() const { return m_questions; }
    TurnPanel *turnPanel() const { return m_turnPanel; }
    ChangesPanel *changesPanel() const { return m_changes; }
    engine::Engine *engine() const { return m_engine; }
    // Exists where no system tray does (then it is never shown).
    QSystemTrayIcon *trayIcon() const { return m_tray; }

    // The guide to libvirt, the guest image and the model (Help menu; shown
    // at start in a new data directory).
    void showFirstRunGuide();
    // A demo turn (the built-in demo model) in `folder`, shown here.
    void runDemoTurn(const QString &folder, const QString &topic);

signals:
    // A notification went to the tray: the window was not in front.
    void notified(const QString &title, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void createTray();
    void openSecrets();
    SecretsEditor *openSecretsEditor(const QString &folder);
    // The composer's offer after a turn found no model credential.
    void runFailedPromptOnDemoModel();
    void setModelKey();
    void submitOnDemoModel(const QString &folder, const QString &topic, const QString &prompt);
    void restoreLayout();
    void onSelection(const QString &folder, const QString &topic);
    void send(const QString &prompt);
    void cancelRunningTurn();
    void onTurnQueued(const turns::TurnRecord &turn);
    void onTurnFinished(const turns::TurnRecord &turn);
    void onNetworkDecision(const turns::TurnRecord &turn, const QJsonObject &decision);
    // Re-reads the selected topic's latest turn and its queue.
    void refreshTopicActivity();
    // The tray icon's tooltip: this process's turns that have not ended.
    void refreshTray();
    void notify(const QString &title, const QString &message);
    void showError(const QString &message);

    engine::Workspace &m_workspace;
    engine::Engine *m_engine;
    models::FolderTopicModel *m_treeModel;
    FolderTreePanel *m_tree;
    TranscriptView *m_transcript;
    Composer *m_composer;
    EgressQuestionBar *m_questions;
    TurnPanel *m_turnPanel;
    ChangesPanel *m_changes;
    HostStatusPanel *m_hostStatus;
    QSplitter *m_splitter;
    QSplitter *m_centre;
    QSystemTrayIcon *m_tray;
    turns::RunnerSettings m_settings;
    // The selected topic's latest turn when it failed for want of a model
    // credential (the composer offers a model for it), else empty.
    turns::TurnRecord m_modelless;
    // Which read of the selected topic's activity is the last asked for.
    quint64 m_activityReading = 0;
};

} // namespace arizuko::desktop
