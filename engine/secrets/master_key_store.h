#pragma once

// Where the master keys live: the OS keyring (through QtKeychain) when one
// answers, else a 0600 key file beside the database. Never in the database.

#include "core/result.h"
#include "secrets/key_ring.h"

#include <QString>
#include <functional>
#include <memory>
#include <optional>

namespace arizuko::secrets {

enum class KeyStoreKind
{
    OsKeyring,
    KeyFile
};

// Computes the ring to store from the one stored now (none on first use).
using KeyRingChange = std::function<Result<KeyRing>(const std::optional<KeyRing> &stored)>;

class MasterKeyStore
{
public:
    virtual ~MasterKeyStore() = default;
    virtual KeyStoreKind kind() const = 0;
    // For people: "OS keyring (…)" or "key file /path (mode 0600)".
    virtual QString description() const = 0;
    virtual Result<std::optional<KeyRing>> load() = 0;
    // Read-modify-write, serialised against other processes where the
    // backend allows it; writes only a ring that changed. Returns the ring
    // now stored.
    Result<KeyRing> update(const KeyRingChange &change);

protected:
    // Held from the read to the write of update(); released when destroyed.
    // Null when the backend offers no lock.
    struct Lock
    {
        virtual ~Lock() = default;
    };
    virtual Result<std::unique_ptr<Lock>> lock() = 0;
    virtual Result<void> write(const KeyRing &ring) = 0;
};

struct KeyStoreChoice
{
    std::unique_ptr<MasterKeyStore> store;
    QString reason; // why this one, e.g. "no OS keyring answered: …"
};

// Picks the store for `dataDir`. $ARIZUKO_KEY_STORE=file|keyring forces one;
// otherwise an existing key file wins (so a keyring that comes and goes
// never splits the keys in two), then a keyring that answers within a few
// seconds, then a new key file. When `sealedValuesExist` and neither a key
// file nor a keyring is there, nothing is created: that is an error.
Result<KeyStoreChoice> chooseMasterKeyStore(const QString &dataDir, bool sealedValuesExist);

} // namespace arizuko::secrets
