#pragma once

// A program run to its end from the calling thread (a net-admin step, a
// probe of the D-Bus session bus), under time limits: one that does not
// start in time, or does not finish in time, is killed and reported so.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <chrono>

namespace arizuko::process {

struct ProgramRun
{
    enum class Outcome
    {
        NotStarted,
        TimedOut,
        Crashed,
        Exited
    };
    Outcome outcome = Outcome::NotStarted;
    int exitCode = -1; // Exited only
    QByteArray out;
    QByteArray err;
    QString error; // NotStarted: QProcess's reason

    bool exited() const { return outcome == Outcome::Exited; }
    bool succeeded() const { return exited() && exitCode == 0; }
};

struct RunLimits
{
    std::chrono::milliseconds start;
    std::chrono::milliseconds finish;
};

// Runs `program` with `arguments`; `input` goes to its stdin, which is then
// closed.
ProgramRun runProgram(const QString &program, const QStringList &arguments, RunLimits limits,
                      const QByteArray &input = QByteArray());

} // namespace arizuko::process
