// AES-256-GCM sealing: round trip, fresh nonces, and every tampering or
// truncation refused rather than decrypted into garbage.

#include "secrets/cipher.h"
#include "secrets/key_ring.h"

#include <QTest>

using namespace arizuko;
using namespace arizuko::secrets;

namespace {

QByteArray key()
{
    return *randomBytes(masterKeyBytes);
}

QByteArray body(const QByteArray &sealed)
{
    return QByteArray::fromBase64(sealed.mid(3));
}

QByteArray reseal(const QByteArray &rawBody)
{
    return "v2:" + rawBody.toBase64();
}

} // namespace

class CipherTest : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsWithAFreshNonceEachTime()
    {
        const QByteArray master = key();
        const QByteArray plaintext =
            QByteArray("sk-ant-round-trip-") + '\0' + QByteArray("\xff binary too");
        const Result<QByteArray> first = seal(master, plaintext, "row-1");
        const Result<QByteArray> second = seal(master, plaintext, "row-1");
        QVERIFY(first && second);
        QVERIFY(first->startsWith("v2:"));
        QVERIFY(*first != *second);
        QCOMPARE(body(*first).size(), 12 + plaintext.size() + 16);
        QCOMPARE(body(*first).left(12) == body(*second).left(12), false);
        const Result<QByteArray> opened = unseal(master, *first, "row-1");
        QVERIFY(opened);
        QCOMPARE(*opened, plaintext);
    }

    void everyFlippedBitIsRefused()
    {
        const QByteArray master = key();
        const QByteArray sealed = *seal(master, "a secret value", "row");
        const QByteArray raw = body(sealed);
        for (qsizetype index = 0; index < raw.size(); ++index) {
            for (int bit = 0; bit < 8; ++bit) {
                QByteArray tampered = raw;
                tampered[index] = static_cast<char>(tampered[index] ^ (1 << bit));
                const Result<QByteArray> opened = unseal(master, reseal(tampered), "row");
                QVERIFY2(!opened,
                         qPrintable(QStringLiteral("byte %1 bit %2 opened").arg(index).arg(bit)));
                QCOMPARE(opened.error().code, QStringLiteral("secrets.tampered"));
            }
        }
    }

    void everyTruncationIsRefused()
    {
        const QByteArray master = key();
        const QByteArray sealed = *seal(master, "a secret value", "row");
        for (qsizetype length = 0; length < sealed.size(); ++length) {
            const Result<QByteArray> opened = unseal(master, sealed.left(length), "row");
            QVERIFY2(!opened,
                     qPrintable(QStringLiteral("prefix of %1 characters opened").arg(length)));
            QCOMPARE(opened.error().code, QStringLiteral("secrets.tampered"));
        }
        const QByteArray raw = body(sealed);
        for (qsizetype length = 0; length < raw.size(); ++length)
            QVERIFY(!unseal(master, reseal(raw.left(length)), "row"));
    }

    void wrongKeyRowOrFormatIsRefused()
    {
        const QByteArray master = key();
        const QByteArray sealed = *seal(master, "a secret value", "row-1");
        QVERIFY(!unseal(key(), sealed, "row-1"));
        QVERIFY(!unseal(master, sealed, "row-2"));
        QVERIFY(!unseal(master, "v1:" + sealed.mid(3), "row-1"));
        QVERIFY(!unseal(master, sealed + "!", "row-1"));
        QVERIFY(!unseal(master, "plaintext", "row-1"));
        QCOMPARE(seal("short", "x", "row").error().code, QStringLiteral("secrets.key"));
        const Result<QByteArray> refused = unseal(key(), sealed, "row-1");
        QVERIFY(!refused.error().message.contains(QStringLiteral("secret value")));
    }

    void keyRingSerialisesAndRotates()
    {
        Result<KeyRing> ring = KeyRing::generate();
        QVERIFY(ring);
        const QByteArray first = ring->currentId();
        const Result<QByteArray> second = ring->rotate();
        QVERIFY(second);
        QVERIFY(*second != first);
        QCOMPARE(ring->size(), 2);
        const Result<KeyRing> parsed = KeyRing::parse(ring->serialize());
        QVERIFY(parsed);
        QCOMPARE(parsed->currentId(), *second);
        QCOMPARE(parsed->key(first), ring->key(first));
        QCOMPARE(parsed->currentKey().size(), masterKeyBytes);
        QVERIFY(!KeyRing::parse("garbage"));
        QVERIFY(!KeyRing::parse("arizuko-master-keys 1\ncurrent abc\n"));
        QVERIFY(!KeyRing::parse("arizuko-master-keys 1\ncurrent a\nkey a c2hvcnQ=\n"));
    }
};

QTEST_GUILESS_MAIN(CipherTest)
#include "test_cipher.moc"
