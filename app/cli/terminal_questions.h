#pragma once

// `arizukoctl run` on a terminal: the questions its turns' proxies ask about
// hosts on no allow entry (a folder that asks, docs/egress.md), asked on
// the terminal while the request waits. Read from the store on this
// (the main) thread, one at a time; the line typed is the answer, written
// to the store as the CLI's user; the engine that asked forwards it.

#include "context.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

class QSocketNotifier;

namespace arizuko::store {
class Store;
}

namespace arizuko::cli {

class TerminalQuestions final : public QObject
{
    Q_OBJECT

public:
    // Whether this process may ask: stdin and stderr are terminals.
    static bool available();

    TerminalQuestions(store::Store &store, Context &context, QObject *parent = nullptr);

    // Asks about the questions of `turnId` (a turn of this run).
    void watch(const QString &turnId) { m_turns.insert(turnId); }

private:
    void poll();
    void readAnswer();

    store::Store &m_store;
    Context &m_context;
    QTimer m_poll;
    QSocketNotifier *m_input = nullptr;
    QSet<QString> m_turns;
    QSet<qint64> m_asked;
    QByteArray m_line;
    qint64 m_current = 0; // the question on screen, 0: none
};

} // namespace arizuko::cli
