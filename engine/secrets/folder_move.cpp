#include "secrets/folder_move.h"

#include "folders/folders.h"
#include "secrets/secret_store.h"

#include <memory>

namespace arizuko::secrets {

Result<QStringList> moveFolder(store::Store &store, const QString &actor, const QString &from,
                               const QString &to)
{
    // Held until the move's transaction ends: it re-seals inside it.
    std::unique_ptr<SecretStore> secretStore;
    const auto moveSecrets = [&](const QString &source, const QString &target) -> Result<void> {
        auto opened = SecretStore::open(store, actor);
        if (!opened)
            return opened.error();
        secretStore = std::move(opened).value();
        return secretStore->moveFolder(source, target);
    };
    return folders::Folders(store, actor).move(from, to, moveSecrets);
}

} // namespace arizuko::secrets
