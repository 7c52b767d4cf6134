#include "composer.h"

#include "agent/agent_profile.h"
#include "turns/agent_kinds.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

QString settingsKey(const QString &folder, const QString &topic, const QString &what)
{
    // Folder paths hold '/', which QSettings reads as groups; escape them.
    return QStringLiteral("topics/%1/%2/%3")
        .arg(QString::fromLatin1(folder.toUtf8().toPercentEncoding()),
             QString::fromLatin1(topic.toUtf8().toPercentEncoding()), what);
}

// Each agent has its own model names, so the topic keeps one per agent
// (Claude Code's under the name it had before there were others: settings
// saved then still read).
QString modelSetting(const QString &agent)
{
    return agent == agent::claudeProfile.name ? QStringLiteral("model")
                                              : QStringLiteral("model-") + agent;
}

} // namespace

Composer::Composer(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_agent(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_agentNote(new QLabel(this))
    , m_queued(new QLabel(this))
    , m_send(new QPushButton(tr("&Send"), this))
    , m_cancel(new QPushButton(tr("Cance&l turn"), this))
    , m_modelChoice(new QFrame(this))
{
    m_editor->setObjectName(QStringLiteral("composerEditor"));
    m_editor->setAccessibleName(tr("Prompt"));
    m_editor->setPlaceholderText(
        tr("Write a prompt; Ctrl+Enter sends, Esc cancels the running turn"));
    m_editor->setTabChangesFocus(true);
    m_editor->installEventFilter(this);
    m_editor->setMaximumHeight(120);
    offerAgents({QString(agent::defaultAgentProfile().name)});
    m_agent->setAccessibleName(tr("Agent"));
    m_agent->setObjectName(QStringLiteral("composerAgent"));
    m_model->setPlaceholderText(tr("default model"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setObjectName(QStringLiteral("composerModel"));
    m_agentNote->setObjectName(QStringLiteral("composerAgentNote"));
    m_agentNote->hide();
    m_queued->setObjectName(QStringLiteral("queuedIndicator"));
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_send->setAccessibleName(tr("Send the prompt"));
    m_send->setToolTip(tr("Send (Ctrl+Enter)"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setAccessibleName(tr("Cancel the running turn"));
    m_cancel->setToolTip(tr("Cancel the running turn (Esc)"));
    m_cancel->setEnabled(false);

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Agent:"), this));
    row->addWidget(m_agent);
    row->addWidget(new QLabel(tr("Model:"), this));
    row->addWidget(m_model);
    row->addWidget(m_agentNote);
    row->addStretch(1);
    row->addWidget(m_queued);
    row->addWidget(m_cancel);
    row->addWidget(m_send);
    m_modelChoice->setObjectName(QStringLiteral("modelChoiceBar"));
    m_modelChoice->setFrameShape(QFrame::StyledPanel);
    auto *choiceText = new QLabel(
        tr("No model is set up for this folder (no API key or OAuth token). Run the prompt on "
           "the demo model (scripted, no AI), or set an Anthropic API key: it stays sealed on "
           "this machine and never enters a VM."),
        m_modelChoice);
    choiceText->setObjectName(QStringLiteral("modelChoiceText"));
    choiceText->setWordWrap(true);
    // Its full height, taken from the prompt's; never its width from the window.
    choiceText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    auto *useDemo = new QPushButton(tr("Run it on the &demo model"), m_modelChoice);
    useDemo->setObjectName(QStringLiteral("useDemoModel"));
    useDemo->setAccessibleName(tr("Run the prompt again on the demo model"));
    auto *setKey = new QPushButton(tr("Set an API &key\u2026"), m_modelChoice);
    setKey->setObjectName(QStringLiteral("setModelKey"));
    setKey->setAccessibleName(tr("Set an API key in the secrets editor"));
    auto *choiceButtons = new QHBoxLayout;
    choiceButtons->addWidget(useDemo);
    choiceButtons->addWidget(setKey);
    choiceButtons->addStretch(1);
    auto *choiceLayout = new QVBoxLayout(m_modelChoice);
    choiceLayout->addWidget(choiceText);
    choiceLayout->addLayout(choiceButtons);
    m_modelChoice->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_modelChoice);
    layout->addWidget(m_editor);
    layout->addLayout(row);

    connect(m_send, &QPushButton::clicked, this, &Composer::send);
    connect(m_cancel, &QPushButton::clicked, this, &Composer::cancelRequested);
    connect(useDemo, &QPushButton::clicked, this, &Composer::demoModelRequested);
    connect(setKey, &QPushButton::clicked, this, &Composer::modelKeyRequested);
    connect(m_agent, &QComboBox::currentIndexChanged, this, &Composer::switchAgent);
    connect(m_model, &QLineEdit::editingFinished, this, &Composer::remember);
    setTopic({}, {});
}

void Composer::setTopic(const QString &folder, const QString &topic)
{
    m_folder = folder;
    m_topic = topic;
    const bool enabled = !folder.isEmpty() && !topic.isEmpty();
    for (QWidget *widget : std::initializer_list<QWidget *>{m_editor, m_agent, m_model, m_send})
        widget->setEnabled(enabled);
    if (!enabled)
        return;
    selectTopicsAgent();
}

void Composer::selectTopicsAgent()
{
    if (m_folder.isEmpty())
        return;
    {
        const QSignalBlocker blockAgent(m_agent);
        m_agent->setCurrentIndex(
            std::max(0, m_agent->findData(QSettings().value(
                            settingsKey(m_folder, m_topic, QStringLiteral("agent")),
                            QString(agent::defaultAgentProfile().name)))));
    }
    showAgentsModel();
}

void Composer::showAgentsModel()
{
    m_modelAgent = agent();
    m_model->setText(
        QSettings().value(settingsKey(m_folder, m_topic, modelSetting(m_modelAgent))).toString());
    // What the user must know before choosing it.
    QString note;
    if (const agent::AgentProfile *profile = agent::agentProfile(m_modelAgent);
        profile && !profile->hostTools)
        note = tr("%1 has no MCP: the folder's host tools (grants) do not reach it.")
                   .arg(QString(profile->title));
    m_agentNote->setText(note);
    m_agentNote->setVisible(!note.isEmpty());
}

void Composer::switchAgent()
{
    // The model field still shows the agent chosen before.
    if (!m_folder.isEmpty())
        QSettings().setValue(settingsKey(m_folder, m_topic, modelSetting(m_modelAgent)), model());
    showAgentsModel();
    remember();
}

void Composer::offerAgents(const QStringList &imageAgents)
{
    {
        const QSignalBlocker blockAgent(m_agent);
        m_agent->clear();
        // Each kind in the profiles' order, when the image carries it; the
        // names are the manifest's and the topic's settings'.
        for (const agent::AgentProfile *profile : agent::agentProfiles()) {
            if (imageAgents.contains(QString(profile->name)))
                m_agent->addItem(QString(profile->title), QString(profile->name));
        }
        m_agent->addItem(tr("Command"), turns::agentKindName(turns::AgentKind::Command));
    }
    selectTopicsAgent();
}

void Composer::remember()
{
    if (m_folder.isEmpty())
        return;
    QSettings settings;
    settings.setValue(settingsKey(m_folder, m_topic, QStringLiteral("agent")), agent());
    settings.setValue(settingsKey(m_folder, m_topic, modelSetting(agent())), model());
}

void Composer::setActivity(bool running, int queued)
{
    m_cancel->setEnabled(running || queued > 0);
    m_queued->setText(queued > 0 ? tr("%n prompt(s) queued", nullptr, queued) : QString());
}

void Composer::offerModelChoice(bool offered)
{
    m_modelChoice->setVisible(offered);
}

QString Composer::agent() const
{
    return m_agent->currentData().toString();
}

QString Composer::model() const
{
    return m_model->text().trimmed();
}

void Composer::send()
{
    const QString prompt = m_editor->toPlainText().trimmed();
    if (prompt.isEmpty() || m_folder.isEmpty())
        return;
    emit sendRequested(prompt);
    m_editor->clear();
}

bool Composer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            key->modifiers().testFlag(Qt::ControlModifier)) {
            send();
            return true;
        }
        if (key->key() == Qt::Key_Escape && m_cancel->isEnabled()) {
            emit cancelRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace arizuko::desktop
