// Two arizukoctl processes at a time, in a loop, writing while an engine-side
// writer process writes too: no lost row and no "database is locked".

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace {

// Reads the engine writer's "committed <i>" lines as they come.
class WriterProgress
{
public:
    explicit WriterProgress(QProcess &writer)
        : m_writer(writer)
    {}

    int committed()
    {
        // QProcess reads the pipe only inside its own waits.
        while (m_writer.waitForReadyRead(0))
            m_pending += m_writer.readAllStandardOutput();
        m_pending += m_writer.readAllStandardOutput();
        const qsizetype lastNewline = m_pending.lastIndexOf('\n');
        if (lastNewline >= 0) {
            m_committed += static_cast<int>(m_pending.left(lastNewline + 1).count("committed "));
            m_pending = m_pending.mid(lastNewline + 1);
        }
        return m_committed;
    }

private:
    QProcess &m_writer;
    QByteArray m_pending;
    int m_committed = 0;
};

} // namespace

class CliConcurrencyTest : public QObject
{
    Q_OBJECT

private slots:
    void cliLoopAndEngineWriterLoseNothing()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        const QString stopFile = dir.filePath(QStringLiteral("stop"));
        Cli cli(dataDir);
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("list")}).exitCode, 0);

        QProcess writer;
        writer.start(QStringLiteral(STORE_WRITER),
                     {dataDir, QStringLiteral("engine"), QStringLiteral("-1"), stopFile});
        QVERIFY(writer.waitForStarted());
        WriterProgress progress(writer);
        while (progress.committed() == 0)
            QVERIFY(writer.waitForReadyRead(10000));
        const int committedAtStart = progress.committed();

        constexpr int iterations = 40;
        const QStringList lanes = {QStringLiteral("cli-a"), QStringLiteral("cli-b")};
        QByteArray errors;
        int failures = 0;
        for (int iteration = 0; iteration < iterations; ++iteration) {
            std::vector<std::unique_ptr<QProcess>> running;
            for (const QString &lane : lanes) {
                auto process = std::make_unique<QProcess>();
                process->setProcessEnvironment(cli.environment());
                process->start(QStringLiteral(ARIZUKOCTL),
                               {QStringLiteral("--data-dir"), dataDir, QStringLiteral("folder"),
                                QStringLiteral("add"),
                                QStringLiteral("%1-%2").arg(lane).arg(iteration)});
                running.push_back(std::move(process));
            }
            for (const auto &process : running) {
                QVERIFY(process->waitForFinished(30000));
                if (process->exitStatus() != QProcess::NormalExit || process->exitCode() != 0)
                    ++failures;
                errors += process->readAllStandardError();
            }
            progress.committed();
        }
        const int committedAtEnd = progress.committed();

        QFile stop(stopFile);
        QVERIFY(stop.open(QIODevice::WriteOnly));
        stop.close();
        QVERIFY(writer.waitForFinished(30000));
        const QByteArray writerErrors = writer.readAllStandardError();
        QCOMPARE(writer.exitCode(), 0);
        const int writerTotal = progress.committed();

        QVERIFY2(!errors.contains("locked") && !writerErrors.contains("locked"),
                 (errors + writerErrors).constData());
        QCOMPARE(failures, 0);
        QVERIFY(errors.isEmpty());
        // The engine kept writing while the CLI loop ran.
        QVERIFY2(committedAtEnd > committedAtStart,
                 qPrintable(QStringLiteral("%1 -> %2").arg(committedAtStart).arg(committedAtEnd)));

        const CliRun listed =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("list")});
        QCOMPARE(listed.exitCode, 0);
        QSet<QString> folders;
        for (const QJsonValue &folder : listed.json().array())
            folders.insert(folder.toObject().value(QStringLiteral("folder")).toString());
        QCOMPARE(folders.size(), lanes.size() * iterations + writerTotal);
        for (const QString &lane : lanes) {
            for (int iteration = 0; iteration < iterations; ++iteration)
                QVERIFY(folders.contains(QStringLiteral("%1-%2").arg(lane).arg(iteration)));
        }
        for (int index = 0; index < writerTotal; ++index)
            QVERIFY(folders.contains(QStringLiteral("engine-%1").arg(index)));
        const CliRun audited = cli.run({QStringLiteral("--json"), QStringLiteral("audit"),
                                        QStringLiteral("--kind"), QStringLiteral("folder.add"),
                                        QStringLiteral("--limit"), QStringLiteral("100000")});
        QCOMPARE(audited.json().array().size(), folders.size());
        qInfo("%d CLI processes (2 at a time) and %d engine commits (%d during the CLI loop), no "
              "failure",
              2 * iterations, writerTotal, committedAtEnd - committedAtStart);
    }
};

QTEST_GUILESS_MAIN(CliConcurrencyTest)
#include "test_cli_concurrency.moc"
