#include "turns/egress_questions.h"

#include "core/actors.h"
#include "store/store.h"

#include <QDateTime>

namespace arizuko::turns {

namespace {

constexpr qint64 minuteMs = 60 * 1000;

// What the proxy is told for the user's answer: Always is the folder's rule
// from now on and this turn's host from its proxy's point of view.
QString proxyAnswer(QuestionAnswer answer)
{
    switch (answer) {
    case QuestionAnswer::Once:
        return QStringLiteral("once");
    case QuestionAnswer::Turn:
    case QuestionAnswer::Always:
        return QStringLiteral("turn");
    case QuestionAnswer::Deny:
        break;
    }
    return QStringLiteral("deny");
}

} // namespace

EgressQuestions::EgressQuestions(store::Store &store, QString engine, QuestionLimits limits,
                                 QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_engine(std::move(engine))
    , m_limits(limits)
{
    m_clock.start();
    m_poll.setInterval(pollIntervalMs);
    connect(&m_poll, &QTimer::timeout, this, &EgressQuestions::readAnswers);
}

bool EgressQuestions::overLimit(const QString &turnId)
{
    const qint64 now = m_clock.elapsed();
    while (!m_recent.empty() && now - m_recent.front() >= minuteMs)
        m_recent.pop_front();
    return m_perTurn.value(turnId) >= m_limits.perTurn ||
           qsizetype(m_recent.size()) >= m_limits.perMinute;
}

void EgressQuestions::ask(const QuestionSource &source, const QJsonObject &line,
                          ProxyAnswerer answerer)
{
    const quint64 proxyId = quint64(line.value(QStringLiteral("id")).toInteger());
    EgressQuestion question;
    question.turnId = source.turnId;
    question.folder = source.folder;
    question.host = line.value(QStringLiteral("host")).toString();
    question.port = quint16(line.value(QStringLiteral("port")).toInt());
    question.method = line.value(QStringLiteral("method")).toString();
    question.path = line.value(QStringLiteral("path")).toString();
    // The same host and port of the same folder, asked while open: one
    // question, answered to every proxy that waits on it.
    for (auto open = m_open.begin(); open != m_open.end(); ++open) {
        const EgressQuestion &same = open->question;
        if (same.folder == question.folder && same.host == question.host &&
            same.port == question.port) {
            open->waiters << Waiter{source.turnId, proxyId, std::move(answerer)};
            return;
        }
    }
    if (question.host.isEmpty() || overLimit(source.turnId)) {
        ++m_limited;
        answerer(proxyId, QStringLiteral("deny"), QString::fromLatin1(askLimit));
        emit limited(source.turnId, question.host);
        return;
    }
    ++m_perTurn[source.turnId];
    m_recent.push_back(m_clock.elapsed());
    question.askedAt = QDateTime::currentDateTimeUtc();
    question.expiresAt = question.askedAt.addSecs(source.timeout.count());
    const Result<qint64> id = insertQuestion(m_store, question, m_engine);
    if (!id) {
        // A question no one can see is one no one can answer.
        qWarning("egress question not recorded: %s", qPrintable(id.error().message));
        answerer(proxyId, QStringLiteral("deny"), QString::fromLatin1(noAnswer));
        return;
    }
    question.id = *id;
    // The turn's topic, for the prompt: the row's join knows it.
    if (const Result<EgressQuestion> stored = findQuestion(m_store, *id); stored)
        question.topic = stored->topic;
    m_open.insert(*id, Open{question, {Waiter{source.turnId, proxyId, std::move(answerer)}}});
    QTimer::singleShot(source.timeout, this, [this, id = *id] { expire(id); });
    m_poll.start();
    emit asked(question);
}

Result<void> EgressQuestions::answer(qint64 id, QuestionAnswer answer, const QString &actor)
{
    if (const Result<void> answered = answerQuestion(m_store, id, answer, actor); !answered)
        return answered;
    readAnswers();
    return {};
}

void EgressQuestions::readAnswers()
{
    if (m_open.isEmpty()) {
        m_poll.stop();
        return;
    }
    const Result<QList<StoredAnswer>> answers = unforwardedAnswers(m_store, m_engine);
    if (!answers) {
        qWarning("egress answers not read: %s", qPrintable(answers.error().message));
        return;
    }
    for (const StoredAnswer &answer : *answers)
        forward(answer.id, answer.answer, answer.reason);
}

void EgressQuestions::forward(qint64 id, QuestionAnswer answer, const QString &reason)
{
    const auto open = m_open.find(id);
    if (open == m_open.end())
        return;
    const QList<Waiter> waiters = open->waiters;
    m_open.erase(open);
    const QString toProxy = proxyAnswer(answer);
    const QString why = answer != QuestionAnswer::Deny
                            ? QString()
                            : (reason.isEmpty() ? QString::fromLatin1(userDenied) : reason);
    for (const Waiter &waiter : waiters)
        waiter.answerer(waiter.proxyId, toProxy, why);
    if (const Result<void> marked = markForwarded(m_store, id); !marked)
        qWarning("egress answer not marked: %s", qPrintable(marked.error().message));
    emit closed(id, questionAnswerName(answer));
}

void EgressQuestions::expire(qint64 id)
{
    if (!m_open.contains(id))
        return;
    const Result<bool> closed =
        closeQuestion(m_store, id, QString::fromLatin1(noAnswer), actors::turns);
    if (closed && *closed) {
        forward(id, QuestionAnswer::Deny, QString::fromLatin1(noAnswer));
        return;
    }
    // Answered at the last moment by another process; or the store failed,
    // and the request is denied all the same.
    readAnswers();
    if (m_open.contains(id))
        forward(id, QuestionAnswer::Deny, QString::fromLatin1(noAnswer));
}

void EgressQuestions::closeTurn(const QString &turnId)
{
    m_perTurn.remove(turnId);
    QList<qint64> orphaned;
    for (auto open = m_open.begin(); open != m_open.end(); ++open) {
        open->waiters.removeIf([&turnId](const Waiter &waiter) { return waiter.turnId == turnId; });
        if (open->waiters.isEmpty())
            orphaned << open.key();
    }
    for (const qint64 id : orphaned) {
        m_open.remove(id);
        if (const Result<bool> closed =
                closeQuestion(m_store, id, QString::fromLatin1(turnEnded), actors::turns);
            closed)
            (void)markForwarded(m_store, id);
        emit closed(id, QStringLiteral("deny"));
    }
}

QList<EgressQuestion> EgressQuestions::pending() const
{
    QList<EgressQuestion> questions;
    for (const Open &open : m_open)
        questions << open.question;
    std::sort(questions.begin(), questions.end(),
              [](const EgressQuestion &a, const EgressQuestion &b) { return a.id < b.id; });
    return questions;
}

} // namespace arizuko::turns
