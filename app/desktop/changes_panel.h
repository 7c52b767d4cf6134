#pragma once

// The Changes tab of the turn panel: the files a turn added, modified and
// deleted in its folder's home (and the names its history skipped), the
// unified diff of the selected one, and "Undo this turn…" after a
// confirmation listing the files. Everything is read from the home's
// history (engine/history) on a worker thread.

#include "history/home_history.h"
#include "turn_records/turn_record.h"

#include <QWidget>
#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

class ChangesPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit ChangesPanel(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Shows this turn's changes (none: an empty record); the turn already
    // shown is not read again.
    void showTurn(const turns::TurnRecord &turn);
    // The history recorded a turn's snapshot after: shown again if it is this one.
    void changesRecorded(const QString &turnId);

    QTreeWidget *files() const { return m_files; }
    QPlainTextEdit *diff() const { return m_diff; }
    QPushButton *undoButton() const { return m_undo; }
    QLabel *status() const { return m_status; }
    QLabel *historyUse() const { return m_historyUse; }

signals:
    // A load or an undo has finished and the panel shows its result.
    void updated();

private:
    // Reads the turn shown; `outcome` (what the user just did) heads the status.
    void load(const QString &outcome = {});
    void showSelectedDiff();
    // A line naming the turns that shared the home meanwhile, or nothing.
    QString overlapNote() const;
    // Plans the undo of the turn shown, then asks (window-modal, answered
    // later); the answer acts on that turn even if the panel moved on.
    void askUndo();
    void confirmUndo(const turns::TurnRecord &turn, const history::UndoReport &plan);
    void applyUndo(const turns::TurnRecord &turn, history::UndoMode mode);
    // A question to the workspace: `ask` starts it and hands the answer to
    // the callback it is given; `show` gets that answer here unless the
    // turn changed meanwhile. One question at a time, and a question asked
    // meanwhile wins over the running one's answer.
    template<typename Answer>
    void runInBackground(std::function<void(std::function<void(Answer)>)> ask,
                         std::function<void(const Answer &)> show);

    engine::Workspace &m_workspace;
    turns::TurnRecord m_turn;
    QStringList m_overlapping; // names of turns that shared the home meanwhile
    quint64 m_generation = 0;
    QLabel *m_status;
    QLabel *m_historyUse; // the history's size on disk and its retention
    QTreeWidget *m_files;
    QPlainTextEdit *m_diff;
    QPushButton *m_undo;
    bool m_running = false;
    std::function<void()> m_next; // the job asked for while one ran
};

} // namespace arizuko::desktop
