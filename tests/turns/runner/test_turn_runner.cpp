// The TurnRunner through its C++ API, against the real libvirtd and store:
// at most the configured number of turns are active at once, the rest wait
// in the queue, and every turn reports its phases in order and finishes once.

#include "audit/audit_log.h"
#include "host/guest_image.h"
#include "folders/folders.h"
#include "store/store.h"
#include "turns/turn_runner.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

class TestTurnRunner : public QObject
{
    Q_OBJECT

private slots:
    void limitsConcurrentTurnsAndQueuesTheRest()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        // A guest image that passes the presence check, and a proxy that
        // holds each turn in preparing for a while and then fails it.
        QDir(directory.path()).mkpath(QStringLiteral("image"));
        QJsonObject files;
        for (const char *name : {"vmlinux", "initramfs.img", "root.img"}) {
            QFile file(directory.filePath(QStringLiteral("image/") + QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("x");
            files.insert(QLatin1String(name), QJsonObject{{QStringLiteral("size"), 1}});
        }
        QFile guest(host::siblingGuestProgram());
        QVERIFY2(guest.open(QIODevice::ReadOnly), "arizuko-guest is built beside the tests");
        const QJsonObject manifest{
            {QStringLiteral("format"), 1},
            {QStringLiteral("files"), files},
            {QStringLiteral("guest"),
             QJsonObject{{QStringLiteral("sha256"),
                          QString::fromLatin1(QCryptographicHash::hash(
                              guest.readAll(), QCryptographicHash::Sha256).toHex())}}}};
        QFile manifestFile(directory.filePath(QStringLiteral("image/manifest.json")));
        QVERIFY(manifestFile.open(QIODevice::WriteOnly));
        manifestFile.write(QJsonDocument(manifest).toJson());
        manifestFile.close();
        const QString proxy = directory.filePath(QStringLiteral("arizuko-egress"));
        QFile script(proxy);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nsleep 2\nexit 1\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        QVERIFY(folders::Folders(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());

        auto settings = RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        settings->guestImageDirectory = directory.filePath(QStringLiteral("image"));
        settings->egressProgram = proxy;
        settings->accelerator = libvirt::AcceleratorSetting::Tcg;
        settings->maxConcurrentTurns = 2;
        // The image cannot boot: classic mode creates no VM before the
        // proxy is healthy, so every turn fails on the proxy alone.
        settings->filterMode = libvirt::FilterMode::Classic;
        auto runner = TurnRunner::startBlocking(**store, *settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));

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
        const audit::AuditLog log(**store);
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
};

QTEST_GUILESS_MAIN(TestTurnRunner)
#include "test_turn_runner.moc"
