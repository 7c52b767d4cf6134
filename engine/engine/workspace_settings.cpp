#include "core/actors.h"
#include "engine/workspace.h"
#include "models/connector_overview.h"
#include "secrets/secret_bindings.h"
#include "store/store.h"

namespace arizuko::engine {
namespace {

using SecretChange = std::function<Result<void>(secrets::SecretStore &)>;

// Opens the key store, makes `change` (if any) and lists the names and
// bindings after it.
Workspace::SecretNames secretNames(store::Store &store, const SecretChange &change)
{
    Workspace::SecretNames names;
    auto opened = secrets::SecretStore::open(store, actors::gui);
    if (!opened) {
        names.secrets = opened.error();
        if (change)
            names.change = opened.error();
        return names;
    }
    names.keyStore = (*opened)->keyStoreDescription();
    if (change)
        names.change = change(**opened);
    names.secrets = (*opened)->list();
    names.bindings = secrets::SecretBindings(store, actors::gui).list();
    return names;
}

} // namespace

void Workspace::listSecrets(QObject *context, std::function<void(SecretNames)> done)
{
    ask(
        context, [](store::Store &store) { return secretNames(store, {}); }, std::move(done));
}

void Workspace::setSecret(const QString &folder, const QString &name, const QByteArray &value,
                          QObject *context, std::function<void(SecretNames)> done)
{
    ask(
        context,
        [folder, name, value](store::Store &store) {
            return secretNames(store, [&](secrets::SecretStore &sealed) {
                return sealed.set({folder}, name, value);
            });
        },
        std::move(done));
}

void Workspace::removeSecret(const QString &folder, const QString &name, QObject *context,
                             std::function<void(SecretNames)> done)
{
    ask(
        context,
        [folder, name](store::Store &store) {
            return secretNames(
                store, [&](secrets::SecretStore &sealed) { return sealed.remove({folder}, name); });
        },
        std::move(done));
}

void Workspace::bindSecret(const QString &folder, const QString &name, const QStringList &hosts,
                           const secrets::SecretPlacement &placement, QObject *context,
                           std::function<void(SecretNames)> done)
{
    ask(
        context,
        [folder, name, hosts, placement](store::Store &store) {
            return secretNames(store, [&](secrets::SecretStore &) -> Result<void> {
                const auto bound = secrets::SecretBindings(store, actors::gui)
                                       .bind({folder}, name, hosts, placement);
                if (!bound)
                    return bound.error();
                return {};
            });
        },
        std::move(done));
}

void Workspace::unbindSecret(const QString &folder, const QString &name, QObject *context,
                             std::function<void(SecretNames)> done)
{
    ask(
        context,
        [folder, name](store::Store &store) {
            return secretNames(store, [&](secrets::SecretStore &) {
                return secrets::SecretBindings(store, actors::gui).unbind({folder}, name);
            });
        },
        std::move(done));
}

void Workspace::gatherConnectors(const QString &folder, QObject *context,
                                 std::function<void(models::ConnectorOverview)> done)
{
    ask(
        context, [folder](store::Store &store) { return models::gatherConnectors(store, folder); },
        std::move(done));
}

void Workspace::loadSettings(QObject *context,
                             std::function<void(Result<turns::SettingValues>)> done)
{
    ask(
        context, [](store::Store &store) { return turns::SavedSettings(store).load(); },
        std::move(done));
}

void Workspace::saveSettings(const turns::SettingValues &changes, QObject *context,
                             std::function<void(Result<void>)> done)
{
    ask(
        context,
        [changes](store::Store &store) {
            return turns::SavedSettings(store).save(changes, actors::gui);
        },
        std::move(done));
}

QString Workspace::dataDir() const
{
    return m_store.dataDir();
}

} // namespace arizuko::engine
