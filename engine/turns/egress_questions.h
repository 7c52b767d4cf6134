#pragma once

// One engine's open egress questions: what its turns' proxies asked about
// hosts on no allow entry (folders whose unlisted hosts are 'ask'), kept in
// the store so the window, arizukoctl and any other process can see and
// answer them, and answered back to the proxy that holds the request.
// It caps what one guest can ask (per turn, per minute: beyond, denied
// ask-limit at once with no question shown), coalesces the same host and
// port of one folder into one question, and denies a question no one
// answered in time with no-answer (docs/egress.md).

#include "core/result.h"
#include "turns/egress_question_rows.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <chrono>
#include <deque>
#include <functional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

struct QuestionLimits
{
    // Questions one turn may ask; beyond, every new host is denied.
    int perTurn = 20;
    // Questions this engine shows in any minute, all turns together.
    int perMinute = 30;
};

// The turn a proxy's question came from.
struct QuestionSource
{
    QString turnId;
    QString folder;
    std::chrono::seconds timeout{60};
};

// Tells the proxy that asked: its own question id, and once, turn or deny
// with a reason (the shared protocol of the proxy's stdin).
using ProxyAnswerer =
    std::function<void(quint64 proxyId, const QString &answer, const QString &reason)>;

class EgressQuestions final : public QObject
{
    Q_OBJECT

public:
    // `engine` is the engine's mark ("pid:starttime") its rows carry.
    static constexpr int pollIntervalMs = 250;

    EgressQuestions(store::Store &store, QString engine, QuestionLimits limits = {},
                    QObject *parent = nullptr);

    // One `ask` line of a turn's proxy. Answered at once (ask-limit, or an
    // error of the store: deny) or later through `answerer`.
    void ask(const QuestionSource &source, const QJsonObject &line, ProxyAnswerer answerer);
    // An answer given in this process (the window, a terminal).
    Result<void> answer(qint64 id, QuestionAnswer answer, const QString &actor);
    // Reads what other processes answered and forwards it; on a timer while
    // a question is open.
    void readAnswers();
    // The turn ended: its questions no other turn waits on are closed.
    void closeTurn(const QString &turnId);

    QList<EgressQuestion> pending() const;
    int limitedCount() const { return m_limited; }

signals:
    // A new question to show.
    void asked(const arizuko::turns::EgressQuestion &question);
    // It was answered or closed: no longer to show.
    void closed(qint64 id, const QString &answer);
    // A question denied ask-limit without being shown.
    void limited(const QString &turnId, const QString &host);

private:
    struct Waiter
    {
        QString turnId;
        quint64 proxyId = 0;
        ProxyAnswerer answerer;
    };
    struct Open
    {
        EgressQuestion question;
        QList<Waiter> waiters;
    };

    bool overLimit(const QString &turnId);
    void forward(qint64 id, QuestionAnswer answer, const QString &reason);
    void expire(qint64 id);

    store::Store &m_store;
    QString m_engine;
    QuestionLimits m_limits;
    QHash<qint64, Open> m_open;
    // Questions each turn asked, shown or coalesced.
    QHash<QString, int> m_perTurn;
    // When this engine showed its recent questions (one minute's worth).
    std::deque<qint64> m_recent;
    QElapsedTimer m_clock;
    // While questions are open: answers another process wrote are read
    // this often (one indexed read).
    QTimer m_poll;
    int m_limited = 0;
};

} // namespace arizuko::turns
