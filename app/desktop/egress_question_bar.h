#pragma once

// The inline prompt above the transcript for a request that waits: a turn
// of a folder that asks about hosts on no allow entry (docs/egress.md).
// Shows the oldest open question of any engine's turns (the store's, read
// through the Workspace on a worker, again whenever a question is asked,
// answered or closed) with the host and the form the folder rule would
// cover, the port, the request, the folder, topic and turn, and Allow
// once, Allow for this turn, Always for this folder, Deny. It never takes
// the focus: Tab reaches its buttons, each with a mnemonic.

#include "engine/workspace.h"

#include <QFrame>
#include <QSet>

class QLabel;
class QPushButton;

namespace arizuko::desktop {

class EgressQuestionBar final : public QFrame
{
    Q_OBJECT

public:
    explicit EgressQuestionBar(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Reads the open questions again.
    void reload();
    // The question shown; 0 when none is (the bar is hidden).
    qint64 shownQuestion() const { return m_shown.id; }

signals:
    // A question not shown before: what the desktop notification says.
    void questionArrived(const QString &title, const QString &text);
    void answerFailed(const QString &message);

private:
    void showQuestions(const QList<turns::EgressQuestion> &open);
    void answer(turns::QuestionAnswer answer);

    engine::Workspace &m_workspace;
    QLabel *m_text;
    QPushButton *m_once;
    QPushButton *m_turn;
    QPushButton *m_always;
    QPushButton *m_deny;
    turns::EgressQuestion m_shown;
    QSet<qint64> m_announced;
    bool m_reloading = false;
    bool m_again = false;
};

} // namespace arizuko::desktop
