#pragma once

// The master keys in a file readable by its owner only, for machines where
// no OS keyring answers (CI, servers, headless sessions).

#include "secrets/master_key_store.h"

namespace arizuko::secrets {

class KeyFile final : public MasterKeyStore
{
public:
    explicit KeyFile(QString path);
    static QString defaultPath(const QString &dataDir);

    KeyStoreKind kind() const override { return KeyStoreKind::KeyFile; }
    QString description() const override;
    Result<std::optional<KeyRing>> load() override;

private:
    // update() runs under a lock file beside the key file.
    Result<std::unique_ptr<Lock>> lock() override;
    // To a 0600 temporary file, synced and renamed over the old one, so a
    // crash leaves the old or the new ring.
    Result<void> write(const KeyRing &ring) override;

    QString m_path;
};

} // namespace arizuko::secrets
