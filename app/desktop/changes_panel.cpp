#include "changes_panel.h"

#include "engine/workspace.h"
#include "turn_changes_reader.h"

#include <QCheckBox>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <memory>

namespace arizuko::desktop {
namespace {

constexpr int diffRole = Qt::UserRole;

} // namespace

ChangesPanel::ChangesPanel(engine::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_status(new QLabel(this))
    , m_historyUse(new QLabel(this))
    , m_files(new QTreeWidget(this))
    , m_diff(new QPlainTextEdit(this))
    , m_undo(new QPushButton(tr("&Undo this turn\u2026"), this))
{
    m_status->setObjectName(QStringLiteral("changesStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_historyUse->setObjectName(QStringLiteral("historyUse"));
    m_historyUse->setWordWrap(true);
    m_historyUse->setTextFormat(Qt::PlainText);
    m_historyUse->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_files->setObjectName(QStringLiteral("changedFiles"));
    m_files->setAccessibleName(tr("Files the turn changed"));
    m_files->setHeaderLabels({tr("Change"), tr("File")});
    m_files->setRootIsDecorated(false);
    m_files->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_diff->setObjectName(QStringLiteral("changeDiff"));
    m_diff->setAccessibleName(tr("Unified diff"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFont(QStringLiteral("monospace")));
    m_undo->setObjectName(QStringLiteral("undoTurnButton"));
    m_undo->setEnabled(false);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_files);
    split->addWidget(m_diff);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_historyUse);
    layout->addWidget(split, 1);
    layout->addWidget(m_undo, 0, Qt::AlignRight);
    connect(m_files, &QTreeWidget::currentItemChanged, this, &ChangesPanel::showSelectedDiff);
    connect(m_undo, &QPushButton::clicked, this, &ChangesPanel::askUndo);
    load();
}

void ChangesPanel::showTurn(const turns::TurnRecord &turn)
{
    // The window shows the topic's latest turn again whenever any turn
    // changes: the same turn keeps what is shown and the job in flight for
    // it (an undo being planned or applied); changesRecorded() reloads it.
    const bool same = turn.id == m_turn.id;
    m_turn = turn;
    if (same)
        return;
    ++m_generation;
    load();
}

void ChangesPanel::changesRecorded(const QString &turnId)
{
    if (turnId == m_turn.id)
        load();
}

template<typename Answer>
void ChangesPanel::runInBackground(std::function<void(std::function<void(Answer)>)> ask,
                                   std::function<void(const Answer &)> show)
{
    if (m_running) {
        m_next = [this, ask, show] { runInBackground(ask, show); };
        return;
    }
    m_running = true;
    const quint64 generation = m_generation;
    // The answer comes only while the panel lives (the workspace drops it
    // with its context).
    ask([this, generation, show](Answer answer) {
        m_running = false;
        if (const auto next = std::exchange(m_next, nullptr)) {
            next();
            return;
        }
        if (generation == m_generation)
            show(answer);
        emit updated();
    });
}

void ChangesPanel::load(const QString &outcome)
{
    // The outcome of what the user just did stays above the list read again.
    const auto show = [this, outcome](const QString &text) {
        m_status->setText(outcome.isEmpty() ? text : outcome + QLatin1Char('\n') + text);
    };
    m_files->clear();
    m_diff->clear();
    m_overlapping.clear();
    m_undo->setEnabled(false);
    if (m_turn.id.isEmpty()) {
        m_status->setText(tr("No turn selected."));
        return;
    }
    show(tr("Reading the home's history\u2026"));
    // The turn's changes and the history's use on disk, asked one after the other.
    using Answer = std::pair<Result<history::TurnChanges>, Result<QString>>;
    runInBackground<Answer>(
        [this, turn = m_turn](std::function<void(Answer)> answer) {
            m_workspace.turnChanges(
                turn, this,
                [this, folder = turn.folder, answer](const Result<history::TurnChanges> &changes) {
                    m_workspace.historyUse(folder, this,
                                           [changes, answer](const Result<QString> &use) {
                                               answer({changes, use});
                                           });
                });
        },
        [this, show](const Answer &answer) {
            const Result<QString> &use = answer.second;
            m_historyUse->setText(use ? tr("History of this folder's home: %1.").arg(*use)
                                      : use.error().message);
            const Result<history::TurnChanges> &changes = answer.first;
            if (!changes) {
                show(changes.error().code == u"history.no-turn" ||
                             changes.error().code == u"history.none"
                         ? tr("The changes are recorded when the turn's VM is gone.")
                         : changes.error().message);
                return;
            }
            for (const history::FileChange &change : changes->files) {
                const QString note = changeNote(change);
                auto *item = new QTreeWidgetItem(
                    m_files, {history::changeKindName(change.kind),
                              note.isEmpty() ? change.path
                                             : QStringLiteral("%1 (%2)").arg(change.path, note)});
                item->setData(0, diffRole, change.diff);
            }
            for (const history::OverlappingTurn &other : changes->overlapping)
                m_overlapping << other.name;
            show((changes->files.isEmpty() ? tr("The turn changed no file in the home.")
                                           : tr("%n file(s) changed in the home.", nullptr,
                                                int(changes->files.size()))) +
                 overlapNote() +
                 (changes->notes.isEmpty()
                      ? QString()
                      : QStringLiteral("\n") + changes->notes.join(QStringLiteral("\n"))));
            m_undo->setEnabled(!changes->files.isEmpty());
            if (QTreeWidgetItem *first = m_files->topLevelItem(0))
                m_files->setCurrentItem(first);
        });
}

QString ChangesPanel::overlapNote() const
{
    // Both turns wrote the one home: the list may hold the other's writes.
    return m_overlapping.isEmpty()
               ? QString()
               : QStringLiteral("\n") + tr("Turn(s) %1 of this home ran at the same time; their "
                                           "writes may be among these changes.")
                                            .arg(m_overlapping.join(QStringLiteral(", ")));
}

void ChangesPanel::showSelectedDiff()
{
    const QTreeWidgetItem *item = m_files->currentItem();
    m_diff->setPlainText(item ? item->data(0, diffRole).toString() : QString());
}

void ChangesPanel::askUndo()
{
    // The turn previewed: the answer acts on it, whichever turn the panel
    // shows by then (a turn queued meanwhile replaces the one shown).
    const turns::TurnRecord turn = m_turn;
    m_undo->setEnabled(false);
    runInBackground<Result<history::UndoReport>>(
        [this, turn](std::function<void(Result<history::UndoReport>)> answer) {
            m_workspace.undoTurn(turn, history::UndoMode::Plan, this, answer);
        },
        [this, turn](const Result<history::UndoReport> &report) {
            if (!report) {
                m_status->setText(report.error().message);
                m_undo->setEnabled(true);
                return;
            }
            confirmUndo(turn, *report);
        });
}

void ChangesPanel::confirmUndo(const turns::TurnRecord &turn, const history::UndoReport &plan)
{
    QString text = tr("Restore these files to their state before the turn?") + overlapNote() +
                   QStringLiteral("\n\n") + plan.restored.join(QLatin1Char('\n'));
    if (!plan.conflicts.isEmpty()) {
        text +=
            QStringLiteral("\n\n") + tr("Changed since the turn, left alone:") + QLatin1Char('\n');
        for (const history::UndoConflict &conflict : plan.conflicts)
            text += conflict.path + QLatin1Char('\n');
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Undo this turn"), text,
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("undoConfirmation"));
    box->setTextFormat(Qt::PlainText);
    box->setDefaultButton(QMessageBox::Cancel);
    // The user's choice to restore the conflicts too (what they hold now is
    // recorded in the history first, so it is not lost).
    if (!plan.conflicts.isEmpty()) {
        auto *force = new QCheckBox(tr("Restore the files changed since the turn too (their "
                                       "current content stays in the history)"),
                                    box);
        force->setObjectName(QStringLiteral("undoForce"));
        box->setCheckBox(force);
    }
    const quint64 generation = m_generation;
    connect(box, &QMessageBox::finished, this, [this, box, turn, generation] {
        box->deleteLater();
        // Cancel, Escape and closing the window all leave the home alone.
        if (box->clickedButton() != box->button(QMessageBox::Yes)) {
            if (generation == m_generation)
                m_undo->setEnabled(true);
            return;
        }
        applyUndo(turn, box->checkBox() && box->checkBox()->isChecked() ? history::UndoMode::Force
                                                                        : history::UndoMode::Apply);
    });
    // Window-modal and answered later, not exec(): a nested event loop here
    // would run inside the plan's completion, with the panel free to move on.
    box->open();
}

void ChangesPanel::applyUndo(const turns::TurnRecord &turn, history::UndoMode mode)
{
    runInBackground<Result<history::UndoReport>>(
        [this, mode, turn](std::function<void(Result<history::UndoReport>)> answer) {
            m_workspace.undoTurn(turn, mode, this, answer);
        },
        [this, turn](const Result<history::UndoReport> &done) {
            if (turn.id != m_turn.id) {
                load(); // the panel shows another turn; the undo is in the audit log
                return;
            }
            load(!done
                     ? done.error().message
                     : tr("Undone: %n file(s) restored", nullptr, int(done->restored.size())) +
                           (done->conflicts.isEmpty() ? QString()
                                                      : tr("; %n changed since and left alone",
                                                           nullptr, int(done->conflicts.size()))));
        });
}

} // namespace arizuko::desktop
