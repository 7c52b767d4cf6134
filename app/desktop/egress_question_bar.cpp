#include "egress_question_bar.h"

#include "safe_text.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace arizuko::desktop {

EgressQuestionBar::EgressQuestionBar(engine::Workspace &workspace, QWidget *parent)
    : QFrame(parent)
    , m_workspace(workspace)
    , m_text(new QLabel(this))
    , m_once(new QPushButton(tr("Allow &once"), this))
    , m_turn(new QPushButton(tr("Allow for this &turn"), this))
    , m_always(new QPushButton(this))
    , m_deny(new QPushButton(tr("&Deny"), this))
{
    setObjectName(QStringLiteral("egressQuestionBar"));
    setFrameShape(QFrame::StyledPanel);
    setAccessibleName(tr("Network question"));
    m_text->setObjectName(QStringLiteral("egressQuestionText"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_once->setObjectName(QStringLiteral("allowOnceButton"));
    m_once->setAccessibleName(tr("Allow this request once"));
    m_turn->setObjectName(QStringLiteral("allowTurnButton"));
    m_turn->setAccessibleName(tr("Allow the host for the rest of this turn"));
    m_always->setObjectName(QStringLiteral("allowAlwaysButton"));
    m_always->setAccessibleName(tr("Always allow the host for this folder"));
    m_deny->setObjectName(QStringLiteral("denyRequestButton"));
    m_deny->setAccessibleName(tr("Deny this request"));
    auto *buttons = new QHBoxLayout;
    for (QPushButton *button : {m_once, m_turn, m_always, m_deny}) {
        // Shown without taking the focus; Tab and the mnemonics reach them.
        button->setAutoDefault(false);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addLayout(buttons);
    connect(m_once, &QPushButton::clicked, this, [this] { answer(turns::QuestionAnswer::Once); });
    connect(m_turn, &QPushButton::clicked, this, [this] { answer(turns::QuestionAnswer::Turn); });
    connect(m_always, &QPushButton::clicked, this,
            [this] { answer(turns::QuestionAnswer::Always); });
    connect(m_deny, &QPushButton::clicked, this, [this] { answer(turns::QuestionAnswer::Deny); });
    connect(&m_workspace, &engine::Workspace::questionsChanged, this, &EgressQuestionBar::reload);
    hide();
    reload();
}

void EgressQuestionBar::reload()
{
    // One read at a time; a change meanwhile reads once more after it.
    if (m_reloading) {
        m_again = true;
        return;
    }
    m_reloading = true;
    m_workspace.openQuestions(this, [this](const Result<QList<turns::EgressQuestion>> &open) {
        m_reloading = false;
        if (open)
            showQuestions(*open);
        if (m_again) {
            m_again = false;
            reload();
        }
    });
}

void EgressQuestionBar::showQuestions(const QList<turns::EgressQuestion> &open)
{
    for (const turns::EgressQuestion &question : open) {
        if (m_announced.contains(question.id))
            continue;
        m_announced.insert(question.id);
        emit questionArrived(
            tr("A turn in %1 asks for %2")
                .arg(printable(question.folder), printable(question.host)),
            tr("Port %1. Answer in Arizuko's window; denied in %2 s without an answer.")
                .arg(question.port)
                .arg(std::max<qint64>(0,
                                      QDateTime::currentDateTimeUtc().secsTo(question.expiresAt))));
    }
    if (open.isEmpty()) {
        m_shown = {};
        hide();
        return;
    }
    m_shown = open.first();
    const QString request = (m_shown.method + QLatin1Char(' ') + m_shown.path).trimmed();
    QString text =
        tr("The turn %1 in %2 (topic %3) asks to reach %4, port %5%6.")
            .arg(m_shown.turnId.left(8), printable(m_shown.folder), printable(m_shown.topic),
                 printable(m_shown.host))
            .arg(m_shown.port)
            .arg(request.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(printable(request)));
    if (open.size() > 1)
        text += QLatin1Char(' ') + tr("%n more waiting.", nullptr, int(open.size() - 1));
    m_text->setText(text);
    m_always->setText(
        tr("&Always for %1 (%2)").arg(printable(m_shown.folder), printable(m_shown.wildcard())));
    show();
}

void EgressQuestionBar::answer(turns::QuestionAnswer answer)
{
    if (m_shown.id == 0)
        return;
    m_workspace.answerQuestion(m_shown.id, answer, this, [this](const Result<void> &answered) {
        if (!answered)
            emit answerFailed(answered.error().message);
        reload();
    });
}

} // namespace arizuko::desktop
