#include "secrets/key_ring.h"

#include "secrets/cipher.h"

#include <QList>

namespace arizuko::secrets {
namespace {

const QByteArray header = QByteArrayLiteral("arizuko-master-keys 1");

Error malformed(const QString &why)
{
    return makeError(QStringLiteral("secrets.key-ring"),
                     QStringLiteral("the stored master keys are unreadable: %1").arg(why));
}

} // namespace

Result<KeyRing> KeyRing::generate()
{
    KeyRing ring;
    if (const Result<QByteArray> id = ring.rotate(); !id)
        return id.error();
    return ring;
}

Result<QByteArray> KeyRing::rotate()
{
    // Random ids: a key regenerated after the old one was lost can never be
    // mistaken for it.
    const Result<QByteArray> id = randomBytes(8);
    const Result<QByteArray> key = randomBytes(masterKeyBytes);
    if (!id)
        return id.error();
    if (!key)
        return key.error();
    m_currentId = id->toHex();
    m_keys.insert(m_currentId, *key);
    return m_currentId;
}

QByteArray KeyRing::serialize() const
{
    QByteArray text = header + "\ncurrent " + m_currentId + '\n';
    for (auto entry = m_keys.cbegin(); entry != m_keys.cend(); ++entry)
        text += "key " + entry.key() + ' ' + entry.value().toBase64() + '\n';
    return text;
}

Result<KeyRing> KeyRing::parse(const QByteArray &serialized)
{
    const QList<QByteArray> lines = serialized.trimmed().split('\n');
    if (lines.isEmpty() || lines.first() != header)
        return malformed(QStringLiteral("unknown format"));
    KeyRing ring;
    for (const QByteArray &line : lines.mid(1)) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() == 2 && fields[0] == "current") {
            ring.m_currentId = fields[1];
        } else if (fields.size() == 3 && fields[0] == "key") {
            const QByteArray::FromBase64Result key =
                QByteArray::fromBase64Encoding(fields[2], QByteArray::AbortOnBase64DecodingErrors);
            if (!key || key.decoded.size() != masterKeyBytes)
                return malformed(QStringLiteral("key %1 is not %2 bytes")
                                     .arg(QString::fromLatin1(fields[1]))
                                     .arg(masterKeyBytes));
            ring.m_keys.insert(fields[1], key.decoded);
        } else {
            return malformed(QStringLiteral("unexpected line"));
        }
    }
    if (!ring.m_keys.contains(ring.m_currentId))
        return malformed(QStringLiteral("the current key is missing"));
    return ring;
}

} // namespace arizuko::secrets
