#pragma once

// Secrets (API tokens and the like) sealed with AES-256-GCM under a master
// key kept outside the database. Values never go to logs, the audit log,
// --json output or error messages; only names do.

#include "core/result.h"
#include "secrets/key_ring.h"
#include "secrets/master_key_store.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <memory>

namespace arizuko::store {
class Store;
}

namespace arizuko::secrets {

// Where a secret applies: a folder and its subtree; the base folder '' is
// every folder.
struct SecretScope
{
    QString folder;
};

struct SecretInfo
{
    QString folder;
    QString key;
    QString keyId;
    QString updatedAt;
};

class SecretStore
{
public:
    static Result<std::unique_ptr<SecretStore>> open(store::Store &store, QString actor);

    KeyStoreKind keyStoreKind() const { return m_keyStore->kind(); }
    // Which store holds the master key and why, e.g. "key file … (mode
    // 0600); no OS keyring answered (no D-Bus session bus)".
    QString keyStoreDescription() const;

    // Names like environment variables: [A-Za-z_][A-Za-z0-9_]*, at most 128.
    static Result<void> validateKey(const QString &key);

    Result<void> set(const SecretScope &scope, const QString &key, const QByteArray &value);
    Result<QByteArray> get(const SecretScope &scope, const QString &key);
    Result<QList<SecretInfo>> list() const;
    Result<void> remove(const SecretScope &scope, const QString &key);
    // Re-seals the secrets of folder `from` and of every folder below it
    // for the same place under `to` (a value is sealed to its folder).
    // Runs inside the caller's write transaction: folders::Folders::move.
    Result<void> moveFolder(const QString &from, const QString &to);
    // A new master key seals from now on; the old ones still open what they
    // sealed. Returns the new key id.
    Result<QString> rotateKey();

private:
    SecretStore(store::Store &store, QString actor, KeyStoreChoice keyStore, KeyRing ring);
    Result<QByteArray> keyFor(const QByteArray &keyId);
    Result<void> checkScope(const SecretScope &scope) const;

    store::Store &m_store;
    QString m_actor;
    std::unique_ptr<MasterKeyStore> m_keyStore;
    QString m_keyStoreReason;
    KeyRing m_ring;
};

} // namespace arizuko::secrets
