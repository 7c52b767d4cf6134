#pragma once

// Every connector the host knows: the built-in ones shipped in the app and
// the user's own from <data dir>/connectors/*.toml. A file that fails its
// checks is left out whole and its error kept for the window and the CLI;
// the others still load.

#include "connectors/connector.h"

#include <QList>
#include <QString>

namespace arizuko::connectors {

struct CatalogueEntry
{
    const Connector *connector = nullptr;
    const Operation *operation = nullptr;
};

class ConnectorCatalogue
{
public:
    // Reads the built-in definitions and the user's directory now.
    static ConnectorCatalogue load(const QString &dataDir);

    // Where the user's definitions live.
    static QString userDirectory(const QString &dataDir);

    const QList<Connector> &connectors() const { return m_connectors; }
    // "file:line: message" for every file left out.
    const QStringList &errors() const { return m_errors; }

    // The operation behind a tool name; both null when there is none.
    CatalogueEntry find(const QString &tool) const;
    // The grant actions (ext:…) of every operation.
    QStringList scopes() const;

private:
    void add(QList<Connector> connectors);

    QList<Connector> m_connectors;
    QStringList m_errors;
};

} // namespace arizuko::connectors
