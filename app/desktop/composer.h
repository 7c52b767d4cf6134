#pragma once

// Where a prompt is written: multi-line, Ctrl+Enter sends, Esc cancels the
// topic's running turn. The agent kind and model are per topic (kept in
// the settings); a label says how many prompts wait in the queue.

#include <QWidget>

class QComboBox;
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

    QString agent() const;
    QString model() const;
    QPlainTextEdit *editor() const { return m_editor; }

signals:
    void sendRequested(const QString &prompt);
    void cancelRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void send();
    void remember();

    QString m_folder;
    QString m_topic;
    QPlainTextEdit *m_editor;
    QComboBox *m_agent;
    QLineEdit *m_model;
    QLabel *m_queued;
    QPushButton *m_send;
    QPushButton *m_cancel;
};

} // namespace arizuko::desktop
