#pragma once

// What the Connectors editor shows, gathered in one go on a worker (it reads
// definition files, the grants and the secrets' names): every connector the
// host knows and each file left out, and for one folder whether its agent
// sees each operation and why (EffectiveToolModel's reasoning, over the
// operations' ext: scopes) and where each secret a connector reads is set.

#include "connectors/connector.h"
#include "models/effective_tool_model.h"

#include <QMap>
#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::models {

struct ConnectorOverview
{
    QList<connectors::Connector> connectors;
    // "file:line: message" for every definition file left out.
    QStringList errors;
    QString folder;
    // One row per operation scope; empty without a folder.
    QList<EffectiveToolModel::Row> scopes;
    // A secret name -> the nearest folder at or above `folder` that holds it
    // (never its value); a name no folder up holds is absent.
    QMap<QString, QString> secretHolders;
    // Why the grants or the secrets' names could not be read, or empty.
    QString problem;

    const EffectiveToolModel::Row *scope(const QString &action) const;
};

// Blocking (definition files, the grants, the key store): the window has
// Workspace::gatherConnectors run it on a worker, and shows the result with
// ConnectorListModel::setOverview and ConnectorOperationModel::show.
ConnectorOverview gatherConnectors(store::Store &store, const QString &folder);

} // namespace arizuko::models
