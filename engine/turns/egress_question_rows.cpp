#include "turns/egress_question_rows.h"

#include "audit/audit_log.h"
#include "policy/policy.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

namespace arizuko::turns {

namespace {

// Open: not answered, and its turn still live (a question of a turn a dead
// engine left is no one's to forward).
const QString openCondition = QStringLiteral(
    "q.answer IS NULL AND t.state IN ('queued', 'preparing', 'booting', 'running', 'finishing')");

const QString columns = QStringLiteral("q.id, q.turn_id, q.folder, t.topic, q.host, q.port, "
                                       "q.method, q.path, q.asked_at, q.expires_at");

EgressQuestion questionOf(const QSqlQuery &query)
{
    EgressQuestion question;
    question.id = query.value(0).toLongLong();
    question.turnId = query.value(1).toString();
    question.folder = query.value(2).toString();
    question.topic = query.value(3).toString();
    question.host = query.value(4).toString();
    question.port = quint16(query.value(5).toUInt());
    question.method = query.value(6).toString();
    question.path = query.value(7).toString();
    question.askedAt = QDateTime::fromString(query.value(8).toString(), Qt::ISODateWithMs);
    question.expiresAt = QDateTime::fromString(query.value(9).toString(), Qt::ISODateWithMs);
    return question;
}

// A null QString binds as NULL; the text columns hold '' for "none".
QString notNull(const QString &text)
{
    return text.isNull() ? QStringLiteral("") : text;
}

Error notFound(qint64 id)
{
    return makeError(QStringLiteral("egress.question-not-found"),
                     QStringLiteral("no open question %1").arg(id));
}

} // namespace

QString questionAnswerName(QuestionAnswer answer)
{
    switch (answer) {
    case QuestionAnswer::Once:
        return QStringLiteral("once");
    case QuestionAnswer::Turn:
        return QStringLiteral("turn");
    case QuestionAnswer::Always:
        return QStringLiteral("always");
    case QuestionAnswer::Deny:
        break;
    }
    return QStringLiteral("deny");
}

std::optional<QuestionAnswer> questionAnswerFromName(const QString &name)
{
    for (const QuestionAnswer answer : {QuestionAnswer::Once, QuestionAnswer::Turn,
                                        QuestionAnswer::Always, QuestionAnswer::Deny}) {
        if (questionAnswerName(answer) == name)
            return answer;
    }
    return std::nullopt;
}

QJsonObject toJson(const EgressQuestion &question)
{
    return {{QStringLiteral("id"), question.id},
            {QStringLiteral("turn"), question.turnId},
            {QStringLiteral("folder"), question.folder},
            {QStringLiteral("topic"), question.topic},
            {QStringLiteral("host"), question.host},
            {QStringLiteral("wildcard"), question.wildcard()},
            {QStringLiteral("port"), int(question.port)},
            {QStringLiteral("method"), question.method},
            {QStringLiteral("path"), question.path},
            {QStringLiteral("asked_at"), store::timestamp(question.askedAt)},
            {QStringLiteral("expires_at"), store::timestamp(question.expiresAt)}};
}

Result<qint64> insertQuestion(store::Store &store, const EgressQuestion &question,
                              const QString &engine)
{
    const Result<QSqlQuery> inserted = store::execute(
        store.database(),
        QStringLiteral("INSERT INTO egress_questions (turn_id, folder, host, port, method, path, "
                       "asked_at, expires_at, engine) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {question.turnId, question.folder, question.host, int(question.port),
         notNull(question.method), notNull(question.path), store::timestamp(question.askedAt),
         store::timestamp(question.expiresAt), engine});
    if (!inserted)
        return inserted.error();
    return inserted->lastInsertId().toLongLong();
}

Result<QList<EgressQuestion>> openQuestions(store::Store &store)
{
    Result<QSqlQuery> query = store::execute(
        store.database(), QStringLiteral("SELECT ") + columns +
                              QStringLiteral(" FROM egress_questions q JOIN turns t ON t.id = "
                                             "q.turn_id WHERE ") +
                              openCondition + QStringLiteral(" ORDER BY q.id"));
    if (!query)
        return query.error();
    QList<EgressQuestion> questions;
    while (query->next())
        questions << questionOf(*query);
    return questions;
}

Result<EgressQuestion> findQuestion(store::Store &store, qint64 id)
{
    Result<QSqlQuery> query =
        store::execute(store.database(),
                       QStringLiteral("SELECT ") + columns +
                           QStringLiteral(" FROM egress_questions q JOIN turns t ON t.id = "
                                          "q.turn_id WHERE q.id = ? AND ") +
                           openCondition,
                       {id});
    if (!query)
        return query.error();
    if (!query->next())
        return notFound(id);
    return questionOf(*query);
}

namespace {

// Sets the answer of an open row; false when it was no longer open.
Result<bool> claim(store::Store &store, qint64 id, QuestionAnswer answer, const QString &reason,
                   const QString &actor)
{
    audit::AuditLog log(store);
    return log.writeAudited([&]() -> Result<bool> {
        const Result<QSqlQuery> updated = store::execute(
            store.database(),
            QStringLiteral("UPDATE egress_questions SET answer = ?, reason = ?, answered_by = ?, "
                           "answered_at = ? WHERE id = ? AND answer IS NULL"),
            {questionAnswerName(answer), notNull(reason), actor, store::nowTimestamp(), id});
        if (!updated)
            return updated.error();
        if (updated->numRowsAffected() != 1)
            return false;
        QJsonObject detail{{QStringLiteral("answer"), questionAnswerName(answer)}};
        if (!reason.isEmpty())
            detail.insert(QStringLiteral("reason"), reason);
        if (const Result<qint64> audited =
                log.record(actor, QStringLiteral("network.question"), QString::number(id), detail);
            !audited)
            return audited.error();
        return true;
    });
}

} // namespace

Result<void> answerQuestion(store::Store &store, qint64 id, QuestionAnswer answer,
                            const QString &actor)
{
    const Result<EgressQuestion> question = findQuestion(store, id);
    if (!question)
        return question.error();
    if (answer == QuestionAnswer::Always) {
        policy::Policy policy(store);
        if (const auto added = policy.network().add(question->folder, question->host,
                                                    policy::RuleKind::Allow, actor);
            !added)
            return added.error();
    }
    const Result<bool> claimed =
        claim(store, id, answer,
              answer == QuestionAnswer::Deny ? QString::fromLatin1(userDenied) : QString(), actor);
    if (!claimed)
        return claimed.error();
    if (!*claimed)
        return makeError(QStringLiteral("egress.question-answered"),
                         QStringLiteral("question %1 was answered already").arg(id));
    return {};
}

Result<bool> closeQuestion(store::Store &store, qint64 id, const QString &reason,
                           const QString &actor)
{
    return claim(store, id, QuestionAnswer::Deny, reason, actor);
}

Result<QList<StoredAnswer>> unforwardedAnswers(store::Store &store, const QString &engine)
{
    Result<QSqlQuery> query =
        store::execute(store.database(),
                       QStringLiteral("SELECT id, answer, reason FROM egress_questions WHERE "
                                      "engine = ? AND answer IS NOT NULL AND forwarded = 0"),
                       {engine});
    if (!query)
        return query.error();
    QList<StoredAnswer> answers;
    while (query->next()) {
        answers << StoredAnswer{
            query->value(0).toLongLong(),
            questionAnswerFromName(query->value(1).toString()).value_or(QuestionAnswer::Deny),
            query->value(2).toString()};
    }
    return answers;
}

Result<void> markForwarded(store::Store &store, qint64 id)
{
    const Result<QSqlQuery> updated = store::execute(
        store.database(), QStringLiteral("UPDATE egress_questions SET forwarded = 1 WHERE id = ?"),
        {id});
    if (!updated)
        return updated.error();
    return {};
}

} // namespace arizuko::turns
