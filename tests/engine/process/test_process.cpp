// Lines out of a stream that arrives in pieces, a long-running child read
// line by line until it ends, and a program run to its end under time
// limits: each against real processes.

#include "core/line_buffer.h"
#include "process/line_process.h"
#include "process/run_program.h"

#include <QSignalSpy>
#include <QTest>

using namespace arizuko;
using namespace std::chrono_literals;

class TestProcess final : public QObject
{
    Q_OBJECT

private:
    // Runs `script` under sh in a LineProcess reading `channel`; the lines it
    // read and how it ended, with the lines all read before the end.
    static std::pair<QByteArrayList, process::ProcessEnd>
    runLines(const QString &program, const QString &script, QProcess::ProcessChannel channel)
    {
        process::LineProcess child(channel);
        QByteArrayList lines;
        std::optional<process::ProcessEnd> end;
        QObject context;
        QObject::connect(&child, &process::LineProcess::lineRead, &context,
                         [&](const QByteArray &line) {
                             if (!end)
                                 lines.append(line);
                         });
        QObject::connect(&child, &process::LineProcess::ended, &context,
                         [&](const process::ProcessEnd &ended) { end = ended; });
        child.process().start(program, {QStringLiteral("-c"), script});
        if (!QTest::qWaitFor([&] { return end.has_value(); }, 10000))
            qFatal("the child did not end");
        return {lines, *end};
    }

private slots:
    void lineBufferKeepsTheUnfinishedLine()
    {
        LineBuffer buffer;
        QCOMPARE(buffer.feed("ab"), QByteArrayList());
        QCOMPARE(buffer.feed("c\nd"), QByteArrayList{"abc"});
        QCOMPARE(buffer.feed("\n\nx"), (QByteArrayList{"d", ""}));
        QCOMPARE(buffer.pending(), QByteArray("x"));
        buffer.clear();
        QCOMPARE(buffer.feed("y\n"), QByteArrayList{"y"});
        QCOMPARE(buffer.pendingSize(), 0);
    }

    void everyLineArrivesBeforeTheEnd()
    {
        const auto [lines, end] =
            runLines(QStringLiteral("sh"),
                     QStringLiteral("printf 'one\\ntwo\\nthr'; sleep 0.1; printf 'ee\\nlast'; "
                                    "echo ignored >&2; exit 3"),
                     QProcess::StandardOutput);
        QCOMPARE(lines, (QByteArrayList{"one", "two", "three"}));
        QVERIFY(end.started);
        QVERIFY(!end.crashed);
        QCOMPARE(end.exitCode, 3);
    }

    void readsStandardErrorWhenAsked()
    {
        const auto [lines, end] =
            runLines(QStringLiteral("sh"), QStringLiteral("echo out; echo err >&2"),
                     QProcess::StandardError);
        QCOMPARE(lines, QByteArrayList{"err"});
        QCOMPARE(end.exitCode, 0);
    }

    void aSignalEndIsACrash()
    {
        const auto [lines, end] =
            runLines(QStringLiteral("sh"), QStringLiteral("kill -9 $$"), QProcess::StandardOutput);
        QVERIFY(end.started);
        QVERIFY(end.crashed);
    }

    void aProgramThatCannotStartEndsOnce()
    {
        const auto [lines, end] = runLines(QStringLiteral("/nonexistent/arizuko-no-such-program"),
                                           QString(), QProcess::StandardOutput);
        QVERIFY(!end.started);
        QVERIFY(!end.error.isEmpty());
    }

    void runProgramFeedsInputAndReadsBothOutputs()
    {
        const process::ProgramRun run = process::runProgram(
            QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("cat; echo oops >&2")},
            {5s, 5s}, "piped in\n");
        QVERIFY(run.succeeded());
        QCOMPARE(run.out, QByteArray("piped in\n"));
        QCOMPARE(run.err, QByteArray("oops\n"));
    }

    void runProgramReportsEachWayItCanEnd()
    {
        const auto sh = [](const QString &script) {
            return process::runProgram(QStringLiteral("sh"), {QStringLiteral("-c"), script},
                                       {5s, 300ms});
        };
        const process::ProgramRun exited = sh(QStringLiteral("exit 4"));
        QCOMPARE(exited.outcome, process::ProgramRun::Outcome::Exited);
        QCOMPARE(exited.exitCode, 4);
        QVERIFY(!exited.succeeded());
        QCOMPARE(sh(QStringLiteral("kill -9 $$")).outcome, process::ProgramRun::Outcome::Crashed);
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(sh(QStringLiteral("exec sleep 30")).outcome,
                 process::ProgramRun::Outcome::TimedOut);
        QVERIFY(clock.elapsed() < 5000);
        const process::ProgramRun missing = process::runProgram(
            QStringLiteral("/nonexistent/arizuko-no-such-program"), {}, {5s, 5s});
        QCOMPARE(missing.outcome, process::ProgramRun::Outcome::NotStarted);
        QVERIFY(!missing.error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProcess)
#include "test_process.moc"
