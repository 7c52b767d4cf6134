#include "models/connector_overview.h"

#include "connectors/connector_catalogue.h"
#include "core/actors.h"
#include "folders/folder_names.h"
#include "policy/policy.h"
#include "secrets/secret_store.h"
#include "store/store.h"

#include <QSet>

namespace arizuko::models {

const EffectiveToolModel::Row *ConnectorOverview::scope(const QString &action) const
{
    for (const EffectiveToolModel::Row &row : scopes) {
        if (row.tool == action)
            return &row;
    }
    return nullptr;
}

ConnectorOverview gatherConnectors(store::Store &store, const QString &folder)
{
    ConnectorOverview overview;
    const auto catalogue = connectors::ConnectorCatalogue::load(store.dataDir());
    overview.connectors = catalogue.connectors();
    overview.errors = catalogue.errors();
    overview.folder = folder;
    if (folder.isEmpty())
        return overview;
    QStringList problems;
    const QStringList actions = catalogue.scopes();
    if (!actions.isEmpty()) {
        policy::Policy policy(store);
        auto rows = EffectiveToolModel::rowsFor(policy, folder, actions);
        if (rows)
            overview.scopes = std::move(*rows);
        else
            problems << rows.error().message;
    }
    // Names only: list() reads no value.
    const auto secrets = secrets::SecretStore::open(store, actors::gui);
    const auto names =
        secrets ? (*secrets)->list() : Result<QList<secrets::SecretInfo>>(secrets.error());
    if (!names) {
        problems << names.error().message;
    } else {
        QSet<std::pair<QString, QString>> held;
        for (const secrets::SecretInfo &secret : *names)
            held.insert({secret.folder, secret.key});
        const QStringList chain = folders::folderAndAncestors(folder);
        for (const connectors::Connector &connector : std::as_const(overview.connectors)) {
            for (const QString &key : connector.secretKeys) {
                for (const QString &at : chain) {
                    if (held.contains({at, key})) {
                        overview.secretHolders.insert(key, at);
                        break;
                    }
                }
            }
        }
    }
    overview.problem = problems.join(QLatin1Char('\n'));
    return overview;
}

} // namespace arizuko::models
