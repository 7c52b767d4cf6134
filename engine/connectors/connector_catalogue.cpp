#include "connectors/connector_catalogue.h"

#include "connectors/connector_parser.h"

#include <QDir>
#include <QFile>
#include <QSet>

namespace arizuko::connectors {
namespace {

// A directory holding more definitions than this is read only this far.
constexpr int maxUserFiles = 64;

Result<QByteArray> readDefinition(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("connectors.unreadable"),
                         QStringLiteral("%1:1: cannot be read: %2").arg(path, file.errorString()));
    // One byte over the cap is enough to refuse it.
    return file.read(maxDefinitionBytes + 1);
}

} // namespace

QString ConnectorCatalogue::userDirectory(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("connectors"));
}

ConnectorCatalogue ConnectorCatalogue::load(const QString &dataDir)
{
    ConnectorCatalogue catalogue;
    const QDir builtIn(QStringLiteral(":/connectors"));
    for (const QString &name : builtIn.entryList({QStringLiteral("*.toml")}, QDir::Files)) {
        const auto text = readDefinition(builtIn.filePath(name));
        auto parsed = text ? parseConnectors(*text, builtIn.filePath(name))
                           : Result<QList<Connector>>(text.error());
        if (!parsed) {
            catalogue.m_errors << parsed.error().message;
            continue;
        }
        for (Connector &connector : *parsed)
            connector.builtIn = true;
        catalogue.add(std::move(*parsed));
    }
    if (dataDir.isEmpty())
        return catalogue;
    const QDir user(userDirectory(dataDir));
    const QStringList files =
        user.entryList({QStringLiteral("*.toml")}, QDir::Files | QDir::Readable, QDir::Name);
    for (qsizetype i = 0; i < files.size() && i < maxUserFiles; ++i) {
        const QString path = user.filePath(files.at(i));
        const auto text = readDefinition(path);
        auto parsed = text ? parseConnectors(*text, path) : Result<QList<Connector>>(text.error());
        if (!parsed) {
            catalogue.m_errors << parsed.error().message;
            continue;
        }
        catalogue.add(std::move(*parsed));
    }
    if (files.size() > maxUserFiles)
        catalogue.m_errors << QStringLiteral("%1: only the first %2 definition files are read")
                                  .arg(user.path())
                                  .arg(maxUserFiles);
    return catalogue;
}

// A later file cannot take over a service or a tool name an earlier one
// (a built-in first) holds: the whole file is left out.
void ConnectorCatalogue::add(QList<Connector> connectors)
{
    QSet<QString> services;
    QSet<QString> tools;
    for (const Connector &known : std::as_const(m_connectors)) {
        services.insert(known.service);
        for (const Operation &operation : known.operations)
            tools.insert(operation.tool);
    }
    for (const Connector &connector : std::as_const(connectors)) {
        if (services.contains(connector.service)) {
            m_errors << QStringLiteral("%1:1: service %2 is already defined; the file is left out")
                            .arg(connector.source, connector.service);
            return;
        }
        for (const Operation &operation : connector.operations) {
            if (tools.contains(operation.tool)) {
                m_errors << QStringLiteral("%1:%2: tool %3 is already defined; the file is left "
                                           "out")
                                .arg(connector.source)
                                .arg(operation.line)
                                .arg(operation.tool);
                return;
            }
        }
    }
    m_connectors << connectors;
}

CatalogueEntry ConnectorCatalogue::find(const QString &tool) const
{
    for (const Connector &connector : m_connectors) {
        for (const Operation &operation : connector.operations) {
            if (operation.tool == tool)
                return {&connector, &operation};
        }
    }
    return {};
}

QStringList ConnectorCatalogue::scopes() const
{
    QStringList scopes;
    for (const Connector &connector : m_connectors) {
        for (const Operation &operation : connector.operations)
            scopes << operation.scope;
    }
    return scopes;
}

} // namespace arizuko::connectors
