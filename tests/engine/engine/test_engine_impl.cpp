// EngineImpl, the engine the window and arizukoctl run both use, without a
// VM: a real store file, a libvirt that cannot be reached. What it checks is
// what EngineImpl itself adds over the runner: calls that reach the runner on
// the engine's thread, reports that come back on the caller's as values, the
// mirror of live turns, refusals as requestFailed, cancelAll's reason, the
// Try button's answer and the spare question. A turn that really runs is the
// window's and arizukoctl's end-to-end tests (app.window_turn, turns.*).

#include "engine/engine_impl.h"
#include "folders/folders.h"
#include "store/store.h"
#include "turn_records/turn_records.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace arizuko;

namespace {

turns::TurnRequest commandTurn(const QString &folder, const QString &topic)
{
    turns::TurnRequest request;
    request.folder = folder;
    request.topic = topic;
    request.agent = turns::AgentKind::Command;
    request.prompt = QStringLiteral("true");
    return request;
}

} // namespace

class TestEngineImpl : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        QVERIFY(m_directory->isValid());
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        m_store = std::move(*opened);
        const auto added =
            folders::Folders(*m_store, QStringLiteral("user:test")).add(QStringLiteral("corp"));
        QVERIFY2(added, added ? "" : qPrintable(added.error().message));
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY2(settings, settings ? "" : qPrintable(settings.error().message));
        m_settings = *settings;
        // Nothing listens there: the start fails, and turns stay queued.
        m_settings.libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock");
    }

    void cleanup()
    {
        m_store.reset();
        m_directory.reset();
    }

    void aStartThatCannotReachLibvirtFailsWithItsReason()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QSignalSpy ready(&engine, &engine::Engine::ready);
        QSignalSpy failed(&engine, &engine::Engine::failed);
        engine.start();
        QVERIFY(failed.wait(30000));
        QCOMPARE(ready.count(), 0);
        QVERIFY(!engine.isReady());
        const auto error = failed.first().at(0).value<Error>();
        QVERIFY2(!error.message.isEmpty(), qPrintable(error.code));
    }

    void aSubmitTheRunnerRefusesComesBackAsRequestFailed()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QSignalSpy refused(&engine, &engine::Engine::requestFailed);
        QSignalSpy queued(&engine, &engine::Engine::turnQueued);
        engine.submit(commandTurn(QStringLiteral("nowhere"), QStringLiteral("main")));
        QVERIFY(refused.wait());
        QVERIFY2(refused.first().at(0).toString().contains(
                     QStringLiteral("folder 'nowhere' does not exist")),
                 qPrintable(refused.first().at(0).toString()));
        QCOMPARE(queued.count(), 0);
        QVERIFY(engine.liveTurns().isEmpty());

        engine.cancel(QStringLiteral("az-00000000"));
        QVERIFY(refused.wait());
        QCOMPARE(refused.count(), 2);
    }

    void aQueuedTurnIsMirroredAsAValueAndCancelledAsStored()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QThread *callers = QThread::currentThread();
        QList<QThread *> reportedOn;
        const auto note = [&reportedOn] { reportedOn << QThread::currentThread(); };
        connect(&engine, &engine::Engine::turnQueued, this, note);
        connect(&engine, &engine::Engine::turnEvents, this, note);
        connect(&engine, &engine::Engine::turnFinished, this, note);
        QSignalSpy queued(&engine, &engine::Engine::turnQueued);
        QSignalSpy events(&engine, &engine::Engine::turnEvents);
        QSignalSpy finished(&engine, &engine::Engine::turnFinished);

        // Not started: the turn stays queued.
        engine.submit(commandTurn(QStringLiteral("corp"), QStringLiteral("main")));
        QVERIFY(queued.wait());
        const auto turn = queued.first().at(0).value<turns::TurnRecord>();
        QCOMPARE(turn.folder, QStringLiteral("corp"));
        QCOMPARE(turn.state, turns::TurnState::Queued);
        QCOMPARE(engine.liveTurns().size(), 1);
        QCOMPARE(engine.liveTurns().first().id, turn.id);
        const auto stored = turns::TurnRecords(*m_store).find(turn.id);
        QVERIFY2(stored, stored ? "" : qPrintable(stored.error().message));
        QCOMPARE(stored->state, turns::TurnState::Queued);

        engine.cancel(turn.id);
        QVERIFY(finished.wait());
        const auto ended = finished.first().at(0).value<turns::TurnRecord>();
        QCOMPARE(ended.id, turn.id);
        QCOMPARE(ended.state, turns::TurnState::Cancelled);
        // As stored: the end time is written by the time the report leaves.
        QVERIFY(!ended.endedAt.isEmpty());
        QVERIFY(engine.liveTurns().isEmpty());
        QCOMPARE(reasonsOfCancel(events, turn.id),
                 QStringList{QStringLiteral("cancelled by the user")});
        for (QThread *thread : reportedOn)
            QCOMPARE(thread, callers);
        QVERIFY(!reportedOn.isEmpty());
    }

    void cancelAllCancelsEveryTurnWithItsReason()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QSignalSpy queued(&engine, &engine::Engine::turnQueued);
        QSignalSpy events(&engine, &engine::Engine::turnEvents);
        QSignalSpy finished(&engine, &engine::Engine::turnFinished);
        engine.submit(commandTurn(QStringLiteral("corp"), QStringLiteral("one")));
        engine.submit(commandTurn(QStringLiteral("corp"), QStringLiteral("two")));
        QTRY_COMPARE(queued.count(), 2);
        QCOMPARE(engine.liveTurns().size(), 2);

        const QString why = QStringLiteral("interrupted (the test)");
        engine.cancelAll(why);
        QTRY_COMPARE(finished.count(), 2);
        QVERIFY(engine.liveTurns().isEmpty());
        for (const QList<QVariant> &report : finished) {
            const auto ended = report.at(0).value<turns::TurnRecord>();
            QCOMPARE(ended.state, turns::TurnState::Cancelled);
            QCOMPARE(reasonsOfCancel(events, ended.id), QStringList{why});
        }
    }

    void tryingWhatIsNoReadOperationSaysSo()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QSignalSpy tried(&engine, &engine::Engine::connectorTried);
        engine.tryConnector(QStringLiteral("corp"), QStringLiteral("nothing_here"), {});
        QVERIFY(tried.wait());
        QCOMPARE(tried.first().at(0).toString(), QStringLiteral("corp"));
        QCOMPARE(tried.first().at(1).toString(), QStringLiteral("nothing_here"));
        QVERIFY2(tried.first().at(2).toString().contains(
                     QStringLiteral("is not a read (GET) operation of any connector")),
                 qPrintable(tried.first().at(2).toString()));
        QVERIFY(tried.first().at(3).toBool());
    }

    void theSpareQuestionIsAnsweredAfterTheCallsBeforeIt()
    {
        engine::EngineImpl engine(*m_store, m_settings);
        QSignalSpy named(&engine, &engine::Engine::spareNamed);
        // An engine that keeps no spares makes none, even when asked.
        engine.prepareSpare(QStringLiteral("corp"));
        engine.askSpareName();
        QVERIFY(named.wait());
        QCOMPARE(named.first().at(0).toString(), QString());
    }

private:
    // The reasons the turn's `cancel` events give, as the engine reported them.
    static QStringList reasonsOfCancel(const QSignalSpy &events, const QString &turnId)
    {
        QStringList reasons;
        for (const QList<QVariant> &batch : events) {
            if (batch.at(0).toString() != turnId)
                continue;
            for (const auto &event : batch.at(1).value<QList<turns::TurnEventRecord>>()) {
                if (event.kind == QLatin1String("cancel"))
                    reasons << event.json.value(QStringLiteral("reason")).toString();
            }
        }
        return reasons;
    }

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;
    turns::RunnerSettings m_settings;
};

QTEST_GUILESS_MAIN(TestEngineImpl)
#include "test_engine_impl.moc"
