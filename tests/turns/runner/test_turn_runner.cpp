// The TurnRunner through its C++ API, against the real libvirtd and store:
// at most the configured number of turns are active at once, the rest wait
// in the queue, and every turn reports its phases in order and finishes once.

#include "agent/session_files.h"
#include "audit/audit_log.h"
#include "folders/folders.h"
#include "host/guest_image.h"
#include "session_read_gate.h"
#include "store/store.h"
#include "turns/turn_runner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

// A data directory with a folder `corp`, a guest image that passes the
// presence check, and a proxy that holds each turn in preparing for a while
// and then fails it: every turn fails on the proxy alone (classic mode
// creates no VM before the proxy is healthy).
struct RunnerFixture
{
    QTemporaryDir directory;
    std::unique_ptr<store::Store> store;
    RunnerSettings settings;

    Result<void> make()
    {
        if (!directory.isValid())
            return makeError(QStringLiteral("test"), QStringLiteral("no temporary directory"));
        QDir(directory.path()).mkpath(QStringLiteral("image"));
        QJsonObject files;
        for (const char *name : {"vmlinux", "initramfs.img", "root.img"}) {
            QFile file(directory.filePath(QStringLiteral("image/") + QLatin1String(name)));
            if (!file.open(QIODevice::WriteOnly))
                return makeError(QStringLiteral("test"), file.errorString());
            file.write("x");
            files.insert(QLatin1String(name), QJsonObject{{QStringLiteral("size"), 1}});
        }
        QFile guest(host::siblingGuestProgram());
        if (!guest.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("test"),
                             QStringLiteral("arizuko-guest is built beside the tests"));
        const QJsonObject manifest{
            {QStringLiteral("format"), 1},
            {QStringLiteral("files"), files},
            {QStringLiteral("guest"),
             QJsonObject{{QStringLiteral("sha256"),
                          QString::fromLatin1(QCryptographicHash::hash(
                              guest.readAll(), QCryptographicHash::Sha256).toHex())}}}};
        QFile manifestFile(directory.filePath(QStringLiteral("image/manifest.json")));
        if (!manifestFile.open(QIODevice::WriteOnly))
            return makeError(QStringLiteral("test"), manifestFile.errorString());
        manifestFile.write(QJsonDocument(manifest).toJson());
        manifestFile.close();
        const QString proxy = directory.filePath(QStringLiteral("arizuko-egress"));
        QFile script(proxy);
        if (!script.open(QIODevice::WriteOnly))
            return makeError(QStringLiteral("test"), script.errorString());
        script.write("#!/bin/sh\nsleep 2\nexit 1\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        auto opened = store::Store::open(directory.filePath(QStringLiteral("data")));
        if (!opened)
            return opened.error();
        store = std::move(*opened);
        if (const auto added =
                folders::Folders(*store, QStringLiteral("user:test")).add(QStringLiteral("corp"));
            !added)
            return added.error();
        auto fromEnvironment = RunnerSettings::fromEnvironment();
        if (!fromEnvironment)
            return fromEnvironment.error();
        settings = *fromEnvironment;
        settings.guestImageDirectory = directory.filePath(QStringLiteral("image"));
        settings.egressProgram = proxy;
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        settings.filterMode = libvirt::FilterMode::Classic;
        return {};
    }
};

} // namespace

class TestTurnRunner : public QObject
{
    Q_OBJECT

private slots:
    void limitsConcurrentTurnsAndQueuesTheRest()
    {
        RunnerFixture fixture;
        const Result<void> made = fixture.make();
        QVERIFY2(made, made ? "" : qPrintable(made.error().message));
        fixture.settings.maxConcurrentTurns = 2;
        auto runner = TurnRunner::startBlocking(*fixture.store, fixture.settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));
        store::Store &store = *fixture.store;

        int active = 0;
        int mostActive = 0;
        int finished = 0;
        QList<QList<TurnState>> phases;
        for (const char *topic : {"a", "b", "c"}) {
            TurnRequest request;
            request.folder = QStringLiteral("corp");
            request.topic = QLatin1String(topic);
            request.agent = AgentKind::Command;
            request.prompt = QStringLiteral("true");
            auto turn = (*runner)->submit(request);
            QVERIFY(turn.ok());
            const qsizetype index = phases.size();
            phases.append(QList<TurnState>());
            connect(*turn, &Turn::phaseChanged, this, [&, index](TurnState state) {
                phases[index] << state;
                if (state == TurnState::Preparing)
                    mostActive = std::max(mostActive, ++active);
                if (isTerminal(state))
                    --active;
            });
            connect(*turn, &Turn::finished, this, [&finished] { ++finished; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, 3, 60000);
        QCOMPARE(mostActive, 2);
        for (const QList<TurnState> &turn : phases)
            QCOMPARE(turn, (QList<TurnState>{TurnState::Preparing, TurnState::Finishing,
                                             TurnState::Failed}));

        const auto records = (*runner)->records().list(10);
        QVERIFY(records.ok());
        QCOMPARE(records->size(), 3);
        for (const TurnRecord &record : *records)
            QCOMPARE(record.errorCode, QStringLiteral("turns.proxy-unhealthy"));

        // Every state each turn entered is in the audit log, in order.
        const audit::AuditLog log(store);
        for (const TurnRecord &record : *records) {
            const auto entries = log.query({QStringLiteral("turn"), record.name, 0, 100, {}});
            QVERIFY(entries.ok());
            QStringList kinds;
            for (const audit::Entry &entry : *entries) {
                kinds << entry.kind;
                QCOMPARE(entry.detail.value(QStringLiteral("folder")).toString(),
                         QStringLiteral("corp"));
            }
            QCOMPARE(kinds, (QStringList{QStringLiteral("turn.queued"),
                                         QStringLiteral("turn.preparing"),
                                         QStringLiteral("turn.finishing"),
                                         QStringLiteral("turn.failed")}));
        }
    }

    // A turn's plan reads the topic's session file (up to 256 MiB; Codex's
    // after walking its session tree) on a worker, never on the thread that
    // runs the turns (here the test's): the read is seen on another thread
    // while the turn waits queued, holding its slot. A turn cancelled while
    // its files are read never starts: no phase but its end, no VM.
    void plansTheHomesFilesOnAWorkerAndACancelMeanwhileStartsNothing()
    {
        RunnerFixture fixture;
        const Result<void> made = fixture.make();
        QVERIFY2(made, made ? "" : qPrintable(made.error().message));
        fixture.settings.maxConcurrentTurns = 1;
        fixture.settings.modelProvider = ModelProviderChoice::Demo;
        auto runner = TurnRunner::startBlocking(*fixture.store, fixture.settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));
        agent::setSessionInspectionHook(&holdTheSessionRead);
        const auto unhook = qScopeGuard([] {
            agent::setSessionInspectionHook(nullptr);
            readMayGoOn.release(100);
        });

        const auto submit = [&runner](const char *topic) {
            TurnRequest request;
            request.folder = QStringLiteral("corp");
            request.topic = QLatin1String(topic);
            request.agent = AgentKind::Claude;
            request.prompt = QStringLiteral("hello");
            return (*runner)->submit(request);
        };
        QMap<QString, QList<TurnState>> phases;
        connect(runner->get(), &TurnRunner::turnPhaseChanged, this,
                [&phases](Turn *turn, TurnState state) { phases[turn->name()] << state; });

        // Cancelled while its session file is read.
        const auto cancelled = submit("cancelled");
        QVERIFY(cancelled.ok());
        const QString cancelledName = (*cancelled)->name();
        QVERIFY(aReadStarted());
        QVERIFY2(readingThread.loadAcquire() != QThread::currentThread(),
                 "the session file was read on the thread that runs the turns");
        QCOMPARE((*cancelled)->state(), TurnState::Queued);
        // Its plan holds the one slot: a turn queued meanwhile waits.
        const auto waiting = submit("waiting");
        QVERIFY(waiting.ok());
        const QString waitingName = (*waiting)->name();
        QTest::qWait(500);
        QCOMPARE((*waiting)->state(), TurnState::Queued);
        QVERIFY(!readStarted.tryAcquire());
        QVERIFY((*runner)->cancel(cancelledName).ok());
        readMayGoOn.release();
        // The read ends before this thread turns again: its answer arrives
        // while the cancelled turn still exists.
        QThread::msleep(300);

        // The next turn's read, once the cancelled turn let its slot go.
        QVERIFY(aReadStarted());
        QVERIFY(readingThread.loadAcquire() != QThread::currentThread());
        readMayGoOn.release();
        QTRY_VERIFY_WITH_TIMEOUT((*runner)->turns().isEmpty(), 60000);

        QCOMPARE(phases.value(cancelledName),
                 (QList<TurnState>{TurnState::Finishing, TurnState::Cancelled}));
        const auto record = (*runner)->records().find(cancelledName);
        QVERIFY(record.ok());
        QCOMPARE(record->state, TurnState::Cancelled);
        QVERIFY2(record->preparingAt.isEmpty() && record->vmName.isEmpty() &&
                     record->networkName.isEmpty() && record->proxyPid == 0,
                 QJsonDocument(record->toJson()).toJson().constData());
        // The other turn started after it and ran as ever (failing on the
        // test's proxy).
        QCOMPARE(phases.value(waitingName).value(0), TurnState::Preparing);
        QCOMPARE(phases.value(waitingName).constLast(), TurnState::Failed);
    }
};

QTEST_GUILESS_MAIN(TestTurnRunner)
#include "test_turn_runner.moc"
