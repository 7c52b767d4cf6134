#include "process/line_process.h"

namespace arizuko::process {

LineProcess::LineProcess(QProcess::ProcessChannel channel, QObject *parent)
    : QObject(parent)
    , m_channel(channel)
{
    connect(&m_process, &QProcess::started, this, [this] { m_lines.clear(); });
    connect(&m_process,
            channel == QProcess::StandardError ? &QProcess::readyReadStandardError
                                               : &QProcess::readyReadStandardOutput,
            this, &LineProcess::readLines);
    // A child that cannot start reports only this error, never finished.
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit ended(ProcessEnd{false, false, -1, m_process.errorString()});
    });
    connect(&m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) {
                readLines();
                emit ended(ProcessEnd{true, status == QProcess::CrashExit, exitCode, {}});
            });
}

LineProcess::~LineProcess()
{
    // QProcess's destructor kills the child and waits: no signal of it may
    // reach this half-destroyed object then.
    m_process.disconnect(this);
}

void LineProcess::readLines()
{
    const QByteArray bytes = m_channel == QProcess::StandardError
                                 ? m_process.readAllStandardError()
                                 : m_process.readAllStandardOutput();
    const QByteArrayList lines = m_lines.feed(bytes);
    for (const QByteArray &line : lines)
        emit lineRead(line);
}

} // namespace arizuko::process
