#include "process/run_program.h"

#include <QProcess>

namespace arizuko::process {

ProgramRun runProgram(const QString &program, const QStringList &arguments, RunLimits limits,
                      const QByteArray &input)
{
    ProgramRun run;
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForStarted(int(limits.start.count()))) {
        run.error = process.errorString();
        return run;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(int(limits.finish.count()))) {
        process.kill();
        process.waitForFinished(int(limits.finish.count()));
        run.outcome = ProgramRun::Outcome::TimedOut;
    } else if (process.exitStatus() != QProcess::NormalExit) {
        run.outcome = ProgramRun::Outcome::Crashed;
    } else {
        run.outcome = ProgramRun::Outcome::Exited;
        run.exitCode = process.exitCode();
    }
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace arizuko::process
