#pragma once

// A byte stream that arrives in pieces (a socket's, a child's output, a
// streamed HTTP body) cut into its '\n'-ended lines: what a piece completes
// comes out, an unfinished last line waits for the next piece.

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

namespace arizuko {

class LineBuffer
{
public:
    // Appends `bytes`; the lines they complete, in order, without their '\n'.
    QByteArrayList feed(QByteArrayView bytes)
    {
        // Only the new bytes can hold a newline: what waited had none.
        qsizetype newline = m_pending.size();
        m_pending.append(bytes);
        QByteArrayList lines;
        qsizetype start = 0;
        while ((newline = m_pending.indexOf('\n', newline)) >= 0) {
            lines.append(m_pending.sliced(start, newline - start));
            start = ++newline;
        }
        m_pending.remove(0, start);
        return lines;
    }

    // The unfinished last line so far.
    const QByteArray &pending() const { return m_pending; }
    qsizetype pendingSize() const { return m_pending.size(); }
    // Drops the unfinished line (one grown past its reader's limit).
    void clear() { m_pending.clear(); }

private:
    QByteArray m_pending;
};

} // namespace arizuko
