#pragma once

// The master keys: the current one seals, every one of them opens (values
// sealed before a rotation keep their key id). Serialised as a few text
// lines, the same for the key file and for the OS keyring.

#include "core/result.h"

#include <QByteArray>
#include <QMap>

namespace arizuko::secrets {

class KeyRing
{
public:
    // A ring with one fresh random key.
    static Result<KeyRing> generate();
    static Result<KeyRing> parse(const QByteArray &serialized);
    QByteArray serialize() const;

    // Adds a fresh key and makes it the current one; returns its id.
    Result<QByteArray> rotate();

    QByteArray currentId() const { return m_currentId; }
    QByteArray currentKey() const { return m_keys.value(m_currentId); }
    bool contains(const QByteArray &keyId) const { return m_keys.contains(keyId); }
    QByteArray key(const QByteArray &keyId) const { return m_keys.value(keyId); }
    qsizetype size() const { return m_keys.size(); }

private:
    QByteArray m_currentId;
    QMap<QByteArray, QByteArray> m_keys;
};

} // namespace arizuko::secrets
