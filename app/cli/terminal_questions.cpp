#include "terminal_questions.h"

#include "core/actors.h"
#include "terminal_text.h"
#include "turns/egress_question_rows.h"

#include <QDateTime>
#include <QSocketNotifier>
#include <unistd.h>

namespace arizuko::cli {

namespace {

constexpr int pollIntervalMs = 300;

std::optional<turns::QuestionAnswer> answerOf(const QByteArray &line)
{
    const QByteArray word = line.trimmed().toLower();
    if (word == "o" || word == "once")
        return turns::QuestionAnswer::Once;
    if (word == "t" || word == "turn")
        return turns::QuestionAnswer::Turn;
    if (word == "a" || word == "always")
        return turns::QuestionAnswer::Always;
    if (word == "d" || word == "deny")
        return turns::QuestionAnswer::Deny;
    return std::nullopt;
}

} // namespace

bool TerminalQuestions::available()
{
    return ::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO);
}

TerminalQuestions::TerminalQuestions(store::Store &store, Context &context, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_context(context)
    , m_input(new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this))
{
    connect(m_input, &QSocketNotifier::activated, this, &TerminalQuestions::readAnswer);
    m_poll.setInterval(pollIntervalMs);
    connect(&m_poll, &QTimer::timeout, this, &TerminalQuestions::poll);
    m_poll.start();
}

void TerminalQuestions::poll()
{
    if (m_turns.isEmpty())
        return;
    const Result<QList<turns::EgressQuestion>> open = turns::openQuestions(m_store);
    if (!open)
        return; // a busy store: the next tick reads again
    bool currentOpen = false;
    const turns::EgressQuestion *next = nullptr;
    for (const turns::EgressQuestion &question : *open) {
        if (!m_turns.contains(question.turnId))
            continue;
        if (question.id == m_current)
            currentOpen = true;
        else if (!next && !m_asked.contains(question.id))
            next = &question;
    }
    if (m_current != 0 && !currentOpen) {
        // Answered elsewhere (the window, another terminal) or timed out.
        m_context.err() << "\n[network] question " << m_current << " closed\n";
        m_current = 0;
    }
    if (m_current != 0 || !next)
        return;
    m_current = next->id;
    m_asked.insert(next->id);
    const qint64 seconds =
        std::max<qint64>(0, QDateTime::currentDateTimeUtc().secsTo(next->expiresAt));
    QTextStream &err = m_context.err();
    err << "[network] the turn in " << inertForTerminal(next->folder) << " asks for "
        << inertForTerminal(next->host) << ":" << next->port << " "
        << inertForTerminal((next->method + QLatin1Char(' ') + next->path).trimmed())
        << "\n[network] allow [o]nce, for this [t]urn, [a]lways for "
        << inertForTerminal(next->folder) << " (" << inertForTerminal(next->wildcard())
        << "), or [d]eny? (denied in " << seconds << " s) ";
    err.flush();
}

void TerminalQuestions::readAnswer()
{
    char buffer[256];
    const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (got <= 0) {
        // End of input: nothing more to ask here.
        m_input->setEnabled(false);
        return;
    }
    m_line.append(buffer, got);
    const qsizetype end = m_line.indexOf('\n');
    if (end < 0)
        return;
    const QByteArray line = m_line.left(end);
    m_line.remove(0, end + 1);
    if (m_current == 0)
        return;
    QTextStream &err = m_context.err();
    const std::optional<turns::QuestionAnswer> answer = answerOf(line);
    if (!answer) {
        err << "[network] o, t, a or d: ";
        err.flush();
        return;
    }
    const qint64 id = m_current;
    m_current = 0;
    if (const Result<void> answered = turns::answerQuestion(m_store, id, *answer, actors::cli);
        !answered)
        err << "[network] " << answered.error().message << "\n";
    else
        err << "[network] " << turns::questionAnswerName(*answer) << "\n";
    err.flush();
    poll();
}

} // namespace arizuko::cli
