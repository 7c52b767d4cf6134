// Scheduling while the OS keyring is slow to answer: a queued turn starts
// once, and a turn that ends while the runner waits for the keyring is not
// erased under the runner's feet.
//
// The keyring here is held back on purpose. No real keyring daemon runs on
// this machine (no gnome-keyring, no KWallet, no libsecret for QtKeychain),
// so the keyring is a fake: the test starts a real D-Bus session bus
// (dbus-daemon) on which it owns the keyring services' names and answers no
// call, and QtKeychain's request waits until the keyring limit passes.
// Everything else is real: QtKeychain, the bus, libvirtd, the store.

#include "folders/folders.h"
#include "store/store.h"
#include "turns/turn_runner.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVirtualObject>
#include <QDir>
#include <QFile>
#include <QMutex>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

// Takes every call to the keyring services it owns and answers none of
// them: a keyring that is there but slow (locked, waiting for a password
// prompt, busy).
class SilentKeyring final : public QDBusVirtualObject
{
public:
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &) override
    {
        const QMutexLocker lock(&m_mutex);
        m_held << message;
        return true;
    }
    QString introspect(const QString &) const override { return {}; }

    // The calls held so far, as interface.member.
    QStringList held() const
    {
        const QMutexLocker lock(&m_mutex);
        QStringList calls;
        for (const QDBusMessage &message : m_held)
            calls << message.interface() + QLatin1Char('.') + message.member();
        return calls;
    }

private:
    mutable QMutex m_mutex;
    QList<QDBusMessage> m_held;
};

// A session bus of the test's own on which the keyrings QtKeychain may ask
// (the Secret Service, KWallet 4 and 5) are owned by a SilentKeyring.
class HeldBackKeyringBus
{
public:
    explicit HeldBackKeyringBus(const QString &directory)
    {
        QDir().mkpath(directory);
        m_daemon.start(QStringLiteral("dbus-daemon"),
                       {QStringLiteral("--session"), QStringLiteral("--nofork"),
                        QStringLiteral("--address=unix:path=") + directory + QStringLiteral("/bus"),
                        QStringLiteral("--print-address")});
        if (!m_daemon.waitForStarted() || !m_daemon.waitForReadyRead(5000))
            qFatal("dbus-daemon did not start: %s", qPrintable(m_daemon.errorString()));
        m_address = m_daemon.readLine().trimmed();
        QDBusConnection keyring =
            QDBusConnection::connectToBus(QString::fromUtf8(m_address), QStringLiteral("keyring"));
        if (!keyring.registerVirtualObject(QStringLiteral("/"), &m_keyring,
                                           QDBusConnection::SubPath))
            qFatal("cannot serve the keyring object");
        for (const char *name :
             {"org.freedesktop.secrets", "org.kde.kwalletd", "org.kde.kwalletd5"}) {
            if (!keyring.registerService(QLatin1String(name)))
                qFatal("cannot own %s: %s", name, qPrintable(keyring.lastError().message()));
        }
    }
    ~HeldBackKeyringBus()
    {
        QDBusConnection::disconnectFromBus(QStringLiteral("keyring"));
        m_daemon.kill();
        m_daemon.waitForFinished();
    }
    HeldBackKeyringBus(const HeldBackKeyringBus &) = delete;
    HeldBackKeyringBus &operator=(const HeldBackKeyringBus &) = delete;

    QByteArray address() const { return m_address; }
    QStringList held() const { return m_keyring.held(); }

private:
    QProcess m_daemon;
    QByteArray m_address;
    SilentKeyring m_keyring;
};

} // namespace

class TestTurnScheduling : public QObject
{
    Q_OBJECT

private slots:
    void aQueuedTurnStartsOnceWhileTheKeyringIsSlow()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const HeldBackKeyringBus bus(directory.filePath(QStringLiteral("bus")));
        QVERIFY(!bus.address().isEmpty());
        qputenv("DBUS_SESSION_BUS_ADDRESS", bus.address());
        qputenv("ARIZUKO_KEY_STORE", "auto");
        // QtKeychain asks KWallet on a Plasma desktop. Outside one, with no
        // libsecret, whether it asks depends on its version (the one here
        // asks a kwalletd it finds on the bus; some give up at once): the
        // held calls are checked below.
        qputenv("XDG_CURRENT_DESKTOP", "KDE");
        qputenv("KDE_SESSION_VERSION", "5");

        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        QVERIFY(folders::Folders(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        auto settings = RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        settings->modelProvider = ModelProviderChoice::Auto;
        auto runner = TurnRunner::startBlocking(**store, *settings);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().message));

        // A Claude turn with no model credential: its plan asks the secrets,
        // and so the keyring, then fails the turn before any VM exists.
        TurnRequest request;
        request.folder = QStringLiteral("corp");
        request.topic = QStringLiteral("slow-keyring");
        request.agent = AgentKind::Claude;
        request.prompt = QStringLiteral("hello");
        auto turn = (*runner)->submit(request);
        QVERIFY(turn.ok());
        const QString name = (*turn)->name();
        int preparing = 0;
        int finished = 0;
        // What the keyring held when the turn ended: the race needs a call
        // held then (QtKeychain may give up without asking).
        QStringList heldWhenFinished;
        connect(runner->get(), &TurnRunner::turnPhaseChanged, this,
                [&preparing](Turn *, TurnState state) {
                    if (state == TurnState::Preparing)
                        ++preparing;
                });
        connect(runner->get(), &TurnRunner::turnFinished, this,
                [&finished, &heldWhenFinished, &bus] {
                    if (++finished == 1)
                        heldWhenFinished = bus.held();
                });

        QTRY_VERIFY_WITH_TIMEOUT(finished > 0, 30000);
        // Long enough for the store poll to run a dozen times more.
        QTest::qWait(3000);
        qInfo("turn ended: %s", qPrintable((*runner)->records().find(name)->error));
        QVERIFY2(!heldWhenFinished.isEmpty(),
                 "the keyring held no call while the turn was prepared: the race was not run");
        qInfo("the keyring held: %s", qPrintable(heldWhenFinished.join(QStringLiteral(", "))));
        QCOMPARE(preparing, 1);
        QCOMPARE(finished, 1);
        QVERIFY((*runner)->turns().isEmpty());
        const auto record = (*runner)->records().find(name);
        QVERIFY(record.ok());
        QCOMPARE(record->errorCode, noCredentialErrorCode);
    }
};

QTEST_GUILESS_MAIN(TestTurnScheduling)
#include "test_turn_scheduling.moc"
