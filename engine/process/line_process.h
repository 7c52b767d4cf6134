#pragma once

// A long-running child (the egress proxy, the image builder) whose output
// is read line by line, and whose end is reported once, after its last
// line: it could not start, it exited with a code, or a signal ended it.

#include "core/line_buffer.h"

#include <QObject>
#include <QProcess>
#include <QString>

namespace arizuko::process {

struct ProcessEnd
{
    bool started = true;  // false: it could not start, and `error` says why
    bool crashed = false; // a signal ended it
    int exitCode = 0;
    QString error;
};

class LineProcess final : public QObject
{
    Q_OBJECT

public:
    // Reads `channel` (standard output, or standard error) line by line.
    explicit LineProcess(QProcess::ProcessChannel channel, QObject *parent = nullptr);
    // Ends the child, if it runs, without a signal of this object.
    ~LineProcess() override;

    // Set it up and start it here; its signals reach this object's.
    QProcess &process() { return m_process; }
    const QProcess &process() const { return m_process; }
    // What followed the last '\n' (a dying program's last words may not end
    // in one).
    const QByteArray &unfinishedLine() const { return m_lines.pending(); }

signals:
    // Each complete line, without its '\n'.
    void lineRead(const QByteArray &line);
    // Once per start, after the last line.
    void ended(const arizuko::process::ProcessEnd &end);

private:
    void readLines();

    QProcess m_process;
    QProcess::ProcessChannel m_channel;
    LineBuffer m_lines;
};

} // namespace arizuko::process
