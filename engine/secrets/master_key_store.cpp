#include "secrets/master_key_store.h"

#include "secrets/key_file.h"
#include "secrets/os_keyring.h"

#include <QFileInfo>

namespace arizuko::secrets {

Result<KeyRing> MasterKeyStore::update(const KeyRingChange &change)
{
    const Result<std::unique_ptr<Lock>> held = lock();
    if (!held)
        return held.error();
    const Result<std::optional<KeyRing>> stored = load();
    if (!stored)
        return stored.error();
    Result<KeyRing> changed = change(*stored);
    if (!changed)
        return changed.error();
    if (!stored->has_value() || stored->value().serialize() != changed->serialize()) {
        if (const Result<void> written = write(*changed); !written)
            return written.error();
    }
    return changed;
}

Result<KeyStoreChoice> chooseMasterKeyStore(const QString &dataDir, bool sealedValuesExist)
{
    const QString forced = qEnvironmentVariable("ARIZUKO_KEY_STORE");
    const QString keyFilePath = KeyFile::defaultPath(dataDir);
    if (forced == QLatin1String("file"))
        return KeyStoreChoice{std::make_unique<KeyFile>(keyFilePath),
                              QStringLiteral("chosen by ARIZUKO_KEY_STORE")};
    if (!forced.isEmpty() && forced != QLatin1String("keyring") && forced != QLatin1String("auto"))
        return makeError(
            QStringLiteral("secrets.key-store"),
            QStringLiteral("ARIZUKO_KEY_STORE is '%1'; use file, keyring or auto").arg(forced));

    if (forced != QLatin1String("keyring") && QFileInfo::exists(keyFilePath))
        return KeyStoreChoice{std::make_unique<KeyFile>(keyFilePath),
                              QStringLiteral("the key file exists")};

    auto keyring = std::make_unique<OsKeyring>(dataDir);
    const OsKeyring::Probe probe = keyring->probe();
    if (probe.answered)
        return KeyStoreChoice{std::move(keyring), QStringLiteral("the OS keyring answered")};
    if (forced == QLatin1String("keyring"))
        return makeError(QStringLiteral("secrets.keyring"),
                         QStringLiteral("ARIZUKO_KEY_STORE=keyring, but no OS keyring answered: %1")
                             .arg(probe.reason));
    if (sealedValuesExist)
        return makeError(
            QStringLiteral("secrets.key-missing"),
            QStringLiteral(
                "secrets are stored, but their master key is in neither %1 nor an OS keyring "
                "(none answered: %2); unlock your keyring or restore the key file")
                .arg(keyFilePath, probe.reason));
    return KeyStoreChoice{std::make_unique<KeyFile>(keyFilePath),
                          QStringLiteral("no OS keyring answered (%1)").arg(probe.reason)};
}

} // namespace arizuko::secrets
