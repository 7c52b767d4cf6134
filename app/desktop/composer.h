#pragma once

// Where a prompt is written: multi-line, Ctrl+Enter sends, Esc cancels the
// topic's running turn. The agent kind and its model are per topic (kept
// in the settings), and only agents the guest image carries are offered; a
// label says how many prompts wait in the queue. When the
// topic's last turn found no model credential, a bar above the prompt
// offers the fixes: run the prompt on the demo model, or set a key.

#include <QWidget>

class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace arizuko::desktop {

class Composer final : public QWidget
{
    Q_OBJECT

public:
    explicit Composer(QWidget *parent = nullptr);

    // The topic prompts go to; none disables the composer.
    void setTopic(const QString &folder, const QString &topic);
    // Whether a turn of the topic runs (Cancel is offered) and how many wait.
    void setActivity(bool running, int queued);
    // Shows or hides the bar that offers a model for the topic.
    void offerModelChoice(bool offered);
    // The agents the guest image carries (GuestImageStatus::agents' names):
    // of those a turn can run, only these are offered, and the command
    // agent, which needs none. Until called, Claude Code is.
    void offerAgents(const QStringList &imageAgents);

    QString agent() const;
    QString model() const;
    QPlainTextEdit *editor() const { return m_editor; }

signals:
    void sendRequested(const QString &prompt);
    void cancelRequested();
    // The bar's buttons: the failed prompt again on the demo model; the
    // secrets editor, ready for an API key.
    void demoModelRequested();
    void modelKeyRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void send();
    void remember();
    void selectTopicsAgent();
    // The model field and the note of the agent chosen now.
    void showAgentsModel();
    void switchAgent();

    QString m_folder;
    QString m_topic;
    QPlainTextEdit *m_editor;
    QComboBox *m_agent;
    QLineEdit *m_model;
    // Which agent's model the field shows.
    QString m_modelAgent;
    QLabel *m_agentNote;
    QLabel *m_queued;
    QPushButton *m_send;
    QPushButton *m_cancel;
    QFrame *m_modelChoice;
};

} // namespace arizuko::desktop
