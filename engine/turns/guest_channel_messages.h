#pragma once

// What a guest may send on its channel, checked line by line. The channel is
// untrusted input: root in the VM can steal PID 1's descriptor of the port
// (pidfd_getfd, ptrace) and write any bytes, so nothing the engine stores
// takes its kind from the guest. A guest sends `status`, `event`, `log` and
// `exit` (docs/guest.md, "Guest → host"), each with its own members and
// sizes; `network` decisions come only from the proxy's log, phases and
// errors only from the engine.

#include "core/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QSet>
#include <QString>

namespace arizuko::turns {

// The longest line a conforming guest writes: a 1 MiB piece of output whose
// every byte is a control character, escaped as \u00XX (6 bytes), plus the
// members around it.
inline constexpr qsizetype maxGuestLineBytes = 6 * 1024 * 1024 + 4096;
// A piece of agent output (`line`): at most 1 MiB of bytes, so at most that
// many UTF-16 code units once decoded.
inline constexpr qsizetype maxGuestPieceChars = 1024 * 1024;
// Rows of agent output (`event`, `log` and what Claude Code's stdout turns
// into) and their characters one turn stores. At either, the turn records
// one `guest-limit` event and stores no more of the guest's output; the turn
// itself goes on to its end.
inline constexpr qsizetype maxGuestOutputRows = 50'000;
inline constexpr qsizetype maxGuestOutputChars = 64 * 1024 * 1024;

class GuestMessageCheck
{
public:
    // The message, rebuilt from the members its type has, or why it is
    // refused: not JSON, a type a guest does not send, a member missing, of
    // the wrong type, unknown or too long, a `seq` that does not increase, a
    // second `booted`/`running`, anything after `exit`.
    Result<QJsonObject> check(const QByteArray &line);

private:
    Result<QJsonObject> checkStatus(const QJsonObject &message);
    Result<QJsonObject> checkExit(const QJsonObject &message);

    qint64 m_lastSeq = 0;
    QSet<QString> m_states;
    bool m_exited = false;
};

// How much agent output a turn has stored, against the limits above.
class GuestOutputBudget
{
public:
    enum class Outcome
    {
        Store,
        // This row is the first over the limit: record it once.
        LimitReached,
        Drop,
    };

    // Takes one row of `chars` characters.
    Outcome take(qsizetype chars);
    qsizetype rows() const { return m_rows; }
    qsizetype chars() const { return m_chars; }

private:
    qsizetype m_rows = 0;
    qsizetype m_chars = 0;
    bool m_exhausted = false;
};

} // namespace arizuko::turns
