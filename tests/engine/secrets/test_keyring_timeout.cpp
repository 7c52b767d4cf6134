// A keyring that never answers costs a bounded wait, then the secrets fall
// back to a key file. Its own process: the bus check runs once per process.

#include "secrets/key_file.h"
#include "secrets/master_key_store.h"
#include "secrets/secret_store.h"
#include "store/store.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace arizuko;
using namespace arizuko::secrets;

namespace {

// A listening Unix socket that never accepts: connecting succeeds (the
// kernel queues it) and then nothing ever answers, the worst bus there is.
class SilentSocket
{
public:
    explicit SilentSocket(const QString &path)
        : m_descriptor(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0))
    {
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray encoded = QFile::encodeName(path);
        std::memcpy(
            address.sun_path, encoded.constData(),
            std::min<size_t>(static_cast<size_t>(encoded.size()), sizeof address.sun_path - 1));
        if (m_descriptor < 0 ||
            ::bind(m_descriptor, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_descriptor, 16) != 0)
            qFatal("cannot listen on %s", qPrintable(path));
    }
    ~SilentSocket() { ::close(m_descriptor); }
    SilentSocket(const SilentSocket &) = delete;
    SilentSocket &operator=(const SilentSocket &) = delete;

private:
    int m_descriptor;
};

} // namespace

class KeyringTimeoutTest : public QObject
{
    Q_OBJECT

private slots:
    void aSilentBusCostsABoundedWaitThenAKeyFile()
    {
        QTemporaryDir dir;
        const QString busPath = dir.filePath(QStringLiteral("silent-bus"));
        const SilentSocket silentBus(busPath);
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + QFile::encodeName(busPath));
        qputenv("ARIZUKO_KEY_STORE", "auto");
        auto store = store::Store::open(dir.filePath(QStringLiteral("data")));
        QVERIFY(store);

        QElapsedTimer timer;
        timer.start();
        auto secrets = SecretStore::open(**store, QStringLiteral("user:test"));
        const qint64 elapsed = timer.elapsed();
        QVERIFY2(secrets, qPrintable(secrets ? QString() : secrets.error().message));
        qInfo("key store: %s (chosen in %lld ms)", qPrintable((*secrets)->keyStoreDescription()),
              elapsed);
        QVERIFY2(elapsed < 4500, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QCOMPARE((*secrets)->keyStoreKind(), KeyStoreKind::KeyFile);
        QVERIFY((*secrets)->keyStoreDescription().contains(QStringLiteral("did not answer")));
        QVERIFY(QFile::exists(KeyFile::defaultPath((*store)->dataDir())));
        QVERIFY((*secrets)->set({}, QStringLiteral("WORKS"), "yes"));

        // Forcing the keyring where none answers is an error, not a hang.
        qputenv("ARIZUKO_KEY_STORE", "keyring");
        timer.restart();
        const Result<KeyStoreChoice> forced = chooseMasterKeyStore((*store)->dataDir(), true);
        QVERIFY(!forced);
        QCOMPARE(forced.error().code, QStringLiteral("secrets.keyring"));
        QVERIFY(timer.elapsed() < 4500);
    }
};

QTEST_GUILESS_MAIN(KeyringTimeoutTest)
#include "test_keyring_timeout.moc"
