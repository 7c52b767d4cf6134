// The secret store end to end on real files: round trip, rotation, a
// tampered or moved row, a lost or exposed key file, and a byte scan proving that neither the
// master key nor a value lands in the database, its WAL or the audit log.

#include "audit/audit_log.h"
#include "secrets/key_file.h"
#include "secrets/master_key_store.h"
#include "secrets/secret_store.h"
#include "folders/folders.h"
#include "store/store.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>
#include <algorithm>

using namespace arizuko;
using namespace arizuko::secrets;

namespace {

template<typename T>
QString why(const Result<T> &result)
{
    return result ? QString() : result.error().code + QStringLiteral(": ") + result.error().message;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString sealedValue(const store::Store &store, const QString &key)
{
    QSqlQuery query(store.database());
    query.prepare(QStringLiteral("SELECT value FROM secrets WHERE key = ?"));
    query.addBindValue(key);
    if (!query.exec() || !query.next())
        qFatal("no row for %s", qPrintable(key));
    return query.value(0).toString();
}

void setSealedValue(const store::Store &store, const QString &key, const QString &value)
{
    QSqlQuery query(store.database());
    query.prepare(QStringLiteral("UPDATE secrets SET value = ? WHERE key = ?"));
    query.addBindValue(value);
    query.addBindValue(key);
    if (!query.exec())
        qFatal("cannot update %s", qPrintable(key));
}

} // namespace

class SecretsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;

    std::unique_ptr<SecretStore> openSecrets()
    {
        auto secrets = SecretStore::open(*m_store, QStringLiteral("user:test"));
        if (!secrets)
            qFatal("SecretStore::open: %s", qPrintable(why(secrets)));
        return std::move(secrets).value();
    }

    QString keyFilePath() const { return KeyFile::defaultPath(m_store->dataDir()); }

private slots:
    void init()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        auto opened =
            store::Store::open(m_dir.filePath(QUuid::createUuid().toString(QUuid::WithoutBraces)));
        QVERIFY(opened);
        m_store = std::move(opened).value();
    }

    void cleanup() { m_store.reset(); }

    void roundTripReplaceListRemove()
    {
        auto secrets = openSecrets();
        QCOMPARE(secrets->keyStoreKind(), KeyStoreKind::KeyFile);
        QVERIFY(secrets->keyStoreDescription().contains(keyFilePath()));
        QCOMPARE(QFile::permissions(keyFilePath()) & 0x0077, QFileDevice::Permissions());

        QVERIFY(
            folders::Folders(*m_store, QStringLiteral("user:test")).add(QStringLiteral("corp")));
        QVERIFY2(secrets->set({}, QStringLiteral("API_TOKEN"), "base-token"), "set base");
        QVERIFY(secrets->set({QStringLiteral("corp")}, QStringLiteral("API_TOKEN"), "corp-token"));
        QCOMPARE(*secrets->get({}, QStringLiteral("API_TOKEN")), QByteArray("base-token"));
        QCOMPARE(*secrets->get({QStringLiteral("corp")}, QStringLiteral("API_TOKEN")),
                 QByteArray("corp-token"));
        QVERIFY(secrets->set({}, QStringLiteral("API_TOKEN"), "replaced"));
        QCOMPARE(*secrets->get({}, QStringLiteral("API_TOKEN")), QByteArray("replaced"));

        const Result<QList<SecretInfo>> listed = secrets->list();
        QVERIFY(listed);
        QCOMPARE(listed->size(), 2);
        QCOMPARE(listed->at(0).folder, QString());
        QCOMPARE(listed->at(1).folder, QStringLiteral("corp"));

        QCOMPARE(secrets->set({QStringLiteral("ghost")}, QStringLiteral("X"), "v").error().code,
                 QStringLiteral("folder.not-found"));
        QCOMPARE(secrets->set({}, QStringLiteral("1BAD"), "v").error().code,
                 QStringLiteral("secrets.invalid-key"));
        QCOMPARE(secrets->set({}, QStringLiteral("EMPTY"), {}).error().code,
                 QStringLiteral("secrets.empty"));
        QVERIFY(secrets->remove({}, QStringLiteral("API_TOKEN")));
        QCOMPARE(secrets->get({}, QStringLiteral("API_TOKEN")).error().code,
                 QStringLiteral("secrets.not-found"));
        QCOMPARE(secrets->remove({}, QStringLiteral("API_TOKEN")).error().code,
                 QStringLiteral("secrets.not-found"));

        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("secret"), {}, 0, 100, {}});
        QVERIFY(logged);
        QCOMPARE(logged->size(), 4);
        QCOMPARE(logged->last().kind, QStringLiteral("secret.rm"));
    }

    void rotationSealsWithTheNewKeyAndOpensWithTheOld()
    {
        auto secrets = openSecrets();
        QVERIFY(secrets->set({}, QStringLiteral("OLD"), "sealed-before"));
        const Result<QString> newId = secrets->rotateKey();
        QVERIFY2(newId, qPrintable(why(newId)));
        QVERIFY(secrets->set({}, QStringLiteral("NEW"), "sealed-after"));
        const Result<QList<SecretInfo>> listed = secrets->list();
        QCOMPARE(listed->at(0).key, QStringLiteral("NEW"));
        QCOMPARE(listed->at(0).keyId, *newId);
        QVERIFY(listed->at(1).keyId != *newId);

        // A fresh process's view: both keys come back from the key file.
        auto reopened = openSecrets();
        QCOMPARE(*reopened->get({}, QStringLiteral("OLD")), QByteArray("sealed-before"));
        QCOMPARE(*reopened->get({}, QStringLiteral("NEW")), QByteArray("sealed-after"));

        // Rotated elsewhere: this instance finds the new key on demand.
        QVERIFY(reopened->rotateKey());
        QVERIFY(reopened->set({}, QStringLiteral("NEWEST"), "sealed-last"));
        QCOMPARE(*secrets->get({}, QStringLiteral("NEWEST")), QByteArray("sealed-last"));
    }

    void tamperedTruncatedOrMovedRowsAreErrors()
    {
        auto secrets = openSecrets();
        QVERIFY(secrets->set({}, QStringLiteral("ONE"), "first-value"));
        QVERIFY(secrets->set({}, QStringLiteral("TWO"), "second-value"));
        const QString one = sealedValue(*m_store, QStringLiteral("ONE"));
        const QString two = sealedValue(*m_store, QStringLiteral("TWO"));

        QString flipped = one;
        flipped[10] = flipped[10] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        setSealedValue(*m_store, QStringLiteral("ONE"), flipped);
        Result<QByteArray> opened = secrets->get({}, QStringLiteral("ONE"));
        QCOMPARE(opened.error().code, QStringLiteral("secrets.tampered"));
        QVERIFY(opened.error().message.contains(QStringLiteral("'ONE'")));
        QVERIFY(!opened.error().message.contains(QStringLiteral("first-value")));

        setSealedValue(*m_store, QStringLiteral("ONE"), one.left(one.size() - 4));
        QCOMPARE(secrets->get({}, QStringLiteral("ONE")).error().code,
                 QStringLiteral("secrets.tampered"));

        setSealedValue(*m_store, QStringLiteral("ONE"), two);
        QCOMPARE(secrets->get({}, QStringLiteral("ONE")).error().code,
                 QStringLiteral("secrets.tampered"));

        setSealedValue(*m_store, QStringLiteral("ONE"), one);
        QCOMPARE(*secrets->get({}, QStringLiteral("ONE")), QByteArray("first-value"));
    }

    void aLostKeyFileIsAnErrorNotANewKey()
    {
        {
            auto secrets = openSecrets();
            QVERIFY(secrets->set({}, QStringLiteral("KEPT"), "value"));
        }
        QVERIFY(QFile::remove(keyFilePath()));
        const auto reopened = SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(!reopened);
        QCOMPARE(reopened.error().code, QStringLiteral("secrets.key-missing"));
        QVERIFY(!QFile::exists(keyFilePath()));

        qputenv("ARIZUKO_KEY_STORE", "auto");
        const auto automatic = SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(!automatic);
        QCOMPARE(automatic.error().code, QStringLiteral("secrets.key-missing"));
        QVERIFY(!QFile::exists(keyFilePath()));
    }

    void anExposedKeyFileIsRefused()
    {
        openSecrets();
        QVERIFY(QFile::setPermissions(keyFilePath(),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        const auto refused = SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("secrets.key-file-mode"));
        QVERIFY(refused.error().message.contains(QStringLiteral("chmod 600")));
    }

    void neitherTheMasterKeyNorAValueReachesTheDatabaseWalOrAudit()
    {
        const QList<QByteArray> values = {"PLAINTEXT-CANARY-4f1e9b2c7d",
                                          "sk-ant-api03-CANARY-a8c1e0f2b3d4"};
        {
            auto secrets = openSecrets();
            QVERIFY(secrets->set({}, QStringLiteral("FIRST"), values[0]));
            QVERIFY(secrets->rotateKey());
            QVERIFY(secrets->set({}, QStringLiteral("SECOND"), values[1]));
            QVERIFY(secrets->set({}, QStringLiteral("SECOND"), values[1]));
            QCOMPARE(secrets->set({}, QStringLiteral("bad name"), values[0])
                         .error()
                         .message.contains(QString::fromLatin1(values[0])),
                     false);
        }
        const Result<KeyRing> ring = KeyRing::parse(readAll(keyFilePath()));
        QVERIFY(ring);
        QCOMPARE(ring->size(), 2);

        QList<QByteArray> needles = values;
        for (const QByteArray &value : values)
            needles << value.toBase64() << value.toHex();
        const QByteArray serializedRing = ring->serialize();
        for (const QByteArray &line : serializedRing.split('\n')) {
            const QList<QByteArray> fields = line.split(' ');
            if (fields.size() == 3) {
                const QByteArray key = QByteArray::fromBase64(fields[2]);
                needles << key << key.toHex() << fields[2];
            }
        }

        const auto leaks = [&needles](const QString &path) {
            const QByteArray content = readAll(path);
            return std::any_of(
                needles.cbegin(), needles.cend(),
                [&content](const QByteArray &needle) { return content.contains(needle); });
        };
        const QString database = m_store->databasePath();
        // While open, recent pages live in the WAL; scan it and the index.
        QVERIFY(readAll(database + QStringLiteral("-wal")).contains("SECOND"));
        for (const QString &path :
             {database, database + QStringLiteral("-wal"), database + QStringLiteral("-shm")})
            QVERIFY2(!leaks(path), qPrintable(path));

        const Result<QList<audit::Entry>> logged = audit::AuditLog(*m_store).query({});
        QVERIFY(logged);
        QVERIFY(logged->size() >= 4);
        for (const audit::Entry &entry : *logged) {
            const QByteArray text =
                QJsonDocument(entry.detail).toJson() + entry.subject.toUtf8() + entry.kind.toUtf8();
            for (const QByteArray &needle : std::as_const(needles))
                QVERIFY(!text.contains(needle));
        }

        // And after the last connection closes and the WAL is folded in.
        const QString dataDir = m_store->dataDir();
        m_store.reset();
        QVERIFY(readAll(database).contains("SECOND"));
        QVERIFY(!leaks(database));
        auto reopened = store::Store::open(dataDir);
        QVERIFY(reopened);
        m_store = std::move(reopened).value();
        QCOMPARE(*openSecrets()->get({}, QStringLiteral("SECOND")), values[1]);
    }
};

QTEST_GUILESS_MAIN(SecretsTest)
#include "test_secrets.moc"
