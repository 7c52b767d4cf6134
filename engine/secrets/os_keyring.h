#pragma once

// The master keys in the OS keyring (Secret Service, KWallet, macOS
// Keychain, Windows Credential Manager) through QtKeychain. Every call is
// bounded in time: a keyring that does not answer must not hang the app.

#include "secrets/master_key_store.h"

namespace arizuko::secrets {

class OsKeyring final : public MasterKeyStore
{
public:
    // One entry per data directory, so two stores never share keys.
    explicit OsKeyring(const QString &dataDir);

    // Whether a keyring answers at all, and if not why; reading the entry
    // is the probe, since QtKeychain has no cheaper question.
    struct Probe
    {
        bool answered = false;
        QString reason;
    };
    Probe probe();

    KeyStoreKind kind() const override { return KeyStoreKind::OsKeyring; }
    QString description() const override;
    Result<std::optional<KeyRing>> load() override;
    Result<KeyRing> update(const KeyRingChange &change) override;

private:
    QString m_entry;
};

} // namespace arizuko::secrets
