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

private:
    // Keyrings offer no lock; two processes rotating at the same instant
    // could each keep their own new key. Rotation is a rare, manual act.
    Result<std::unique_ptr<Lock>> lock() override { return std::unique_ptr<Lock>(); }
    Result<void> write(const KeyRing &ring) override;

    QString m_entry;
};

} // namespace arizuko::secrets
