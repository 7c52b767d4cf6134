// A keyring that never answers costs a bounded wait, then the secrets fall
// back to a key file. Its own process: the bus check runs once per process.

#include "secrets/key_file.h"
#include "secrets/master_key_store.h"
#include "secrets/secret_store.h"
#include "silent_socket.h"
#include "store/store.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::secrets;

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
