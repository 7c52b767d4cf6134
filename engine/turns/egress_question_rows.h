#pragma once

// The store's side of the questions a turn's egress proxy asks (schema 9,
// egress_questions): the engine that runs the turn writes one row per
// question it shows; any process answers one by claiming its row while it
// is still open; the engine forwards the answer to the proxy that waits.
// "Always for this folder" adds the folder's allow rule where it is
// answered, audited as whoever answered (docs/egress.md).

#include "core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

enum class QuestionAnswer
{
    Once,   // the waiting connection(s), nothing more
    Turn,   // the host, for the rest of the turn
    Always, // a folder allow rule, and the rest of the turn
    Deny
};

QString questionAnswerName(QuestionAnswer answer);
std::optional<QuestionAnswer> questionAnswerFromName(const QString &name);

// Why a question was denied without the user's yes.
inline constexpr const char *userDenied = "user-denied";
inline constexpr const char *noAnswer = "no-answer";
inline constexpr const char *askLimit = "ask-limit";
// The turn ended while its question was open.
inline constexpr const char *turnEnded = "turn-ended";

struct EgressQuestion
{
    qint64 id = 0;
    QString turnId;
    QString folder;
    QString topic;
    QString host;
    quint16 port = 0;
    QString method;
    QString path;
    QDateTime askedAt;
    QDateTime expiresAt;

    // The rule "Always for this folder" adds covers the host and its
    // subdomains: shown as "*." + host.
    QString wildcard() const { return QStringLiteral("*.") + host; }
};

QJsonObject toJson(const EgressQuestion &question);

// Writes a new open question of `engine` ("pid:starttime"); its id.
Result<qint64> insertQuestion(store::Store &store, const EgressQuestion &question,
                              const QString &engine);
// Open questions of live turns, oldest first.
Result<QList<EgressQuestion>> openQuestions(store::Store &store);
// One question, open or not (egress.question-not-found).
Result<EgressQuestion> findQuestion(store::Store &store, qint64 id);

// The user's answer to an open question: Always first adds the folder's
// allow rule for the host (audited as `actor`); then the row is claimed.
// egress.question-answered when another answer was first,
// egress.question-not-found when there is no such question.
Result<void> answerQuestion(store::Store &store, qint64 id, QuestionAnswer answer,
                            const QString &actor);
// Closes an open question with a denial the engine decided (no-answer,
// turn-ended); false when it was answered meanwhile.
Result<bool> closeQuestion(store::Store &store, qint64 id, const QString &reason,
                           const QString &actor);

struct StoredAnswer
{
    qint64 id = 0;
    QuestionAnswer answer = QuestionAnswer::Deny;
    QString reason; // with Deny
};

// Answers to `engine`'s questions it has not forwarded yet.
Result<QList<StoredAnswer>> unforwardedAnswers(store::Store &store, const QString &engine);
Result<void> markForwarded(store::Store &store, qint64 id);

} // namespace arizuko::turns
