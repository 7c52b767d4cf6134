// A folder's home replaced after its turn was planned and before the VM gets
// it (a link to a host directory, or another directory moved in under the
// same name) refuses the turn with turns.unsafe-home, through the real
// TurnRunner, LibvirtGuestMachine and libvirtd: a cold turn before its
// domain is created, a turn due to adopt a spare (booted for real, TCG)
// before it is handed to the spare. No domain or network of the turn or of
// the spare is left, and the replacement is left as it was.
//
// The home is replaced while the plan reads the home's files on a worker
// (agent::setSessionInspectionHook): after resolveTurnHome() and before the
// turn starts, the window an agent of another folder or another process of
// the user would have. docs/security-model.md, "Checked before every VM".

#include "agent/session_files.h"
#include "folders/folders.h"
#include "host/guest_image.h"
#include "store/store.h"
#include "turns/turn_runner.h"

#include <QAtomicInt>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <functional>
#include <libvirt/libvirt.h>
#include <unistd.h>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

const QString folder = QStringLiteral("corp");

// What the plan's worker does to the home once, from the hook.
std::function<bool()> replacement;
QAtomicInt replacements;
QAtomicInt replacementFailures;

void replaceThePlannedHome()
{
    if (!replacement)
        return;
    if (!replacement())
        replacementFailures.fetchAndAddOrdered(1);
    replacement = nullptr;
    replacements.fetchAndAddOrdered(1);
}

// Every entry below `directory` (the directory too) with its size and
// modification time: a VM that had it as its home would change it.
QStringList snapshot(const QString &directory)
{
    QStringList entries{
        QStringLiteral(". %1").arg(QFileInfo(directory).lastModified().toMSecsSinceEpoch())};
    QDirIterator it(directory,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        entries << QStringLiteral("%1 %2 %3")
                       .arg(QDir(directory).relativeFilePath(info.filePath()))
                       .arg(info.size())
                       .arg(info.lastModified().toMSecsSinceEpoch());
    }
    entries.sort();
    return entries;
}

bool makeDirectoryWithCanary(const QString &path)
{
    if (!QDir().mkpath(path))
        return false;
    QFile canary(QDir(path).filePath(QStringLiteral("canary.txt")));
    return canary.open(QIODevice::WriteOnly) && canary.write("not the folder's home\n") > 0;
}

// The planned home moved aside (as a process that renames it would leave
// it), then `what` put at its name.
bool moveAside(const QString &home)
{
    return ::rename(QFile::encodeName(home).constData(),
                    QFile::encodeName(home + QStringLiteral(".planned")).constData()) == 0;
}

std::function<bool()> linkInstead(const QString &home, const QString &target)
{
    return [home, target] {
        return moveAside(home) && ::symlink(QFile::encodeName(target).constData(),
                                            QFile::encodeName(home).constData()) == 0;
    };
}

std::function<bool()> directoryInstead(const QString &home, const QString &other)
{
    return [home, other] {
        return moveAside(home) && ::rename(QFile::encodeName(other).constData(),
                                           QFile::encodeName(home).constData()) == 0;
    };
}

// The names of libvirt's domains and networks that start with `prefix`.
QStringList libvirtObjects(const QString &uri, const QString &prefix)
{
    QStringList names;
    virConnectPtr connection = virConnectOpen(uri.toUtf8().constData());
    if (!connection)
        return {QStringLiteral("(libvirt %1 cannot be reached)").arg(uri)};
    virDomainPtr *domains = nullptr;
    const int domainCount = virConnectListAllDomains(connection, &domains, 0);
    for (int i = 0; i < domainCount; ++i) {
        const QString name = QString::fromUtf8(virDomainGetName(domains[i]));
        if (name.startsWith(prefix))
            names << QStringLiteral("domain ") + name;
        virDomainFree(domains[i]);
    }
    free(domains);
    virNetworkPtr *networks = nullptr;
    const int networkCount = virConnectListAllNetworks(connection, &networks, 0);
    for (int i = 0; i < networkCount; ++i) {
        const QString name = QString::fromUtf8(virNetworkGetName(networks[i]));
        if (name.startsWith(prefix))
            names << QStringLiteral("network ") + name;
        virNetworkFree(networks[i]);
    }
    free(networks);
    virConnectClose(connection);
    return names;
}

struct Fixture
{
    QTemporaryDir directory;
    std::unique_ptr<store::Store> store;
    RunnerSettings settings;
    QString home; // <data>/homes/<id> of corp

    Result<void> make(const RunnerSettings &base)
    {
        if (!directory.isValid())
            return makeError(QStringLiteral("test"), QStringLiteral("no temporary directory"));
        auto opened = store::Store::open(directory.filePath(QStringLiteral("data")));
        if (!opened)
            return opened.error();
        store = std::move(*opened);
        folders::Folders folders(*store, QStringLiteral("user:test"));
        if (const auto added = folders.add(folder); !added)
            return added.error();
        const auto found = folders.home(folder);
        if (!found)
            return found.error();
        home = found->path;
        settings = base;
        settings.egressProgram = QStringLiteral(EGRESS_PROGRAM);
        // A script of the test's own: the built-in demo would add its
        // page to the turn's allowlist, which the spare was not made with.
        QFile script(directory.filePath(QStringLiteral("script.json")));
        if (!script.open(QIODevice::WriteOnly) || script.write(R"({"name": "home-replaced",
                            "exchanges": [{"prompt": "*", "steps": [{"text": "done"}]}]})") <= 0)
            return makeError(QStringLiteral("test"), script.errorString());
        settings.modelProvider = ModelProviderChoice::Demo;
        settings.modelScript = script.fileName();
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        return {};
    }
};

// How far a turn got: its end, or a VM that is its own (Booting) or a
// spare's it took (Running).
struct Outcome
{
    QObject context; // ends the connections with the outcome
    QList<TurnState> phases;
    bool ended = false;
    bool reachedTheVm() const
    {
        return phases.contains(TurnState::Booting) || phases.contains(TurnState::Running);
    }
};

QString phaseNames(const QList<TurnState> &phases)
{
    QStringList names;
    for (const TurnState state : phases)
        names << turnStateName(state);
    return names.join(QLatin1Char(' '));
}

// Submits a turn of corp (its name into `name`), turns the event loop until
// it ended or got a VM (`gotAVm` says what that means), and verifies that
// the home was replaced once and the turn refused before any VM was its own.
void runRefusedTurn(TurnRunner &runner, QString &name, const QString &gotAVm)
{
    TurnRequest request;
    request.folder = folder;
    request.topic = QStringLiteral("replaced");
    request.agent = AgentKind::Claude;
    request.prompt = QStringLiteral("hello");
    const auto submitted = runner.submit(request);
    QVERIFY2(submitted.ok(), submitted.ok() ? "" : qPrintable(submitted.error().message));
    name = (*submitted)->name();
    Outcome outcome;
    QObject::connect(&runner, &TurnRunner::turnPhaseChanged, &outcome.context,
                     [&outcome, name](Turn *turn, TurnState state) {
                         if (turn->name() == name)
                             outcome.phases << state;
                     });
    QObject::connect(&runner, &TurnRunner::turnFinished, &outcome.context,
                     [&outcome, name](Turn *turn) {
                         if (turn->name() == name)
                             outcome.ended = true;
                     });
    // What it got is asserted below.
    static_cast<void>(
        QTest::qWaitFor([&outcome] { return outcome.ended || outcome.reachedTheVm(); }, 20000));
    QCOMPARE(replacements.loadAcquire(), 1);
    QCOMPARE(replacementFailures.loadAcquire(), 0);
    QVERIFY2(!outcome.reachedTheVm(),
             qPrintable(QStringLiteral("%1: %2").arg(gotAVm, phaseNames(outcome.phases))));
    QVERIFY2(outcome.ended, qPrintable(phaseNames(outcome.phases)));
    const auto record = runner.records().find(name);
    QVERIFY(record.ok());
    QCOMPARE(turnStateName(record->state), turnStateName(TurnState::Failed));
    QCOMPARE(record->errorCode, QStringLiteral("turns.unsafe-home"));
    QVERIFY2(record->error.contains(QStringLiteral("folder 'corp'")), qPrintable(record->error));
    QVERIFY2(record->bootingAt.isEmpty(), qPrintable(record->bootingAt));
}

} // namespace

class TestHomeReplaced : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto settings = RunnerSettings::fromEnvironment();
        QVERIFY2(settings.ok(), settings.ok() ? "" : qPrintable(settings.error().message));
        m_settings = *settings;
        const host::GuestImageStatus image =
            host::inspectGuestImage(m_settings.guestImageDirectory);
        QVERIFY2(image.present, qPrintable(host::guestImageFault(image)));
        agent::setSessionInspectionHook(&replaceThePlannedHome);
    }

    void cleanupTestCase() { agent::setSessionInspectionHook(nullptr); }

    void init()
    {
        replacement = nullptr;
        replacements = 0;
        replacementFailures = 0;
    }

    void aColdTurnIsRefusedItsReplacedHome_data()
    {
        QTest::addColumn<bool>("link");
        QTest::newRow("a link to a host directory") << true;
        QTest::newRow("another directory under the same name") << false;
    }

    void aColdTurnIsRefusedItsReplacedHome()
    {
        QFETCH(bool, link);
        Fixture fixture;
        const Result<void> made = fixture.make(m_settings);
        QVERIFY2(made, made ? "" : qPrintable(made.error().message));
        auto runner = TurnRunner::startBlocking(*fixture.store, fixture.settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));

        // The link's target is a host directory; the other directory is
        // made beside the home (the move changes no parent) and moved in.
        const QString replacing = link
                                      ? fixture.directory.filePath(QStringLiteral("host-directory"))
                                      : fixture.home + QStringLiteral(".other");
        QVERIFY(makeDirectoryWithCanary(replacing));
        const QString watched = link ? replacing : fixture.home;
        const QStringList before = snapshot(replacing);
        replacement =
            link ? linkInstead(fixture.home, replacing) : directoryInstead(fixture.home, replacing);

        QString name;
        runRefusedTurn(**runner, name, QStringLiteral("the turn got a VM on the replaced home"));
        if (QTest::currentTestFailed())
            return;

        QTRY_VERIFY_WITH_TIMEOUT((*runner)->turns().isEmpty(), 60000);
        QCOMPARE(libvirtObjects(fixture.settings.libvirtUri, name), QStringList());
        QCOMPARE(snapshot(watched), before);
    }

    // The spare booted with the home as planned; its turn's plan matches the
    // spare (the home was replaced after it was resolved), so only the check
    // right before the hand-off refuses it.
    void aTurnIsNotHandedToASpareWhoseHomeWasReplaced()
    {
        Fixture fixture;
        RunnerSettings settings = m_settings;
        settings.warmStart = true;
        // The spare's VM is what is tested, not an agent started in it.
        settings.prestartAgent = false;
        const Result<void> made = fixture.make(settings);
        QVERIFY2(made, made ? "" : qPrintable(made.error().message));
        auto runner = TurnRunner::startBlocking(*fixture.store, fixture.settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));
        (*runner)->setKeepsSpares(true);
        QSignalSpy ready(runner->get(), &TurnRunner::spareReady);
        QSignalSpy discarded(runner->get(), &TurnRunner::spareDiscarded);
        (*runner)->prepareSpare(folder);
        const QString spare = (*runner)->spareName();
        QVERIFY(!spare.isEmpty());
        QVERIFY2(!ready.isEmpty() || ready.wait(20000),
                 qPrintable(QStringLiteral("the spare did not boot: %1")
                                .arg(discarded.isEmpty() ? QString()
                                                         : discarded.first().value(1).toString())));

        // What is looked for below once it is gone.
        QVERIFY2(libvirtObjects(fixture.settings.libvirtUri, spare)
                     .contains(QStringLiteral("domain ") + spare),
                 qPrintable(libvirtObjects(fixture.settings.libvirtUri, spare).join(u',')));
        const QString target = fixture.directory.filePath(QStringLiteral("host-directory"));
        QVERIFY(makeDirectoryWithCanary(target));
        const QStringList before = snapshot(target);
        replacement = linkInstead(fixture.home, target);

        QString name;
        runRefusedTurn(**runner, name, QStringLiteral("the turn was handed the spare"));
        if (QTest::currentTestFailed())
            return;

        // The spare is discarded, and nothing of it or of the turn stays.
        QTRY_VERIFY_WITH_TIMEOUT(!discarded.isEmpty(), 10000);
        QCOMPARE(discarded.first().value(0).toString(), spare);
        QVERIFY2(discarded.first().value(1).toString().contains(QStringLiteral("not shared")),
                 qPrintable(discarded.first().value(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT((*runner)->turns().isEmpty(), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(libvirtObjects(fixture.settings.libvirtUri, spare), QStringList(),
                                  60000);
        QCOMPARE(libvirtObjects(fixture.settings.libvirtUri, name), QStringList());
        QCOMPARE(snapshot(target), before);
    }

private:
    RunnerSettings m_settings;
};

QTEST_GUILESS_MAIN(TestHomeReplaced)
#include "test_home_replaced.moc"
