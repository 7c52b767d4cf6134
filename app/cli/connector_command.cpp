// arizukoctl connector list|show|check|call: the REST connectors the host
// calls with a folder's secret. `call` goes the agent's way: the folder's
// grants decide it (audited), then the same broker makes the request.

#include "commands.h"
#include "connectors/connector_catalogue.h"
#include "connectors/connector_parser.h"
#include "core/actors.h"
#include "subcommands.h"
#include "tools/turn_tools.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

connectors::ConnectorCatalogue loadCatalogue(Context &context, const QString &dataDir)
{
    auto catalogue = connectors::ConnectorCatalogue::load(dataDir);
    for (const QString &error : catalogue.errors())
        context.err() << "warning: left out: " << error << "\n";
    context.err().flush();
    return catalogue;
}

QString source(const connectors::Connector &connector)
{
    return connector.builtIn ? QStringLiteral("built-in") : connector.source;
}

QJsonObject operationJson(const connectors::Operation &operation)
{
    QJsonArray parameters;
    for (const connectors::Parameter &parameter : operation.parameters)
        parameters.append(QJsonObject{{QStringLiteral("name"), parameter.name},
                                      {QStringLiteral("in"), paramPlaceName(parameter.place)},
                                      {QStringLiteral("type"), paramTypeName(parameter.type)},
                                      {QStringLiteral("required"), parameter.required},
                                      {QStringLiteral("segments"), parameter.segments},
                                      {QStringLiteral("description"), parameter.description}});
    return {{QStringLiteral("tool"), operation.tool},
            {QStringLiteral("scope"), operation.scope},
            {QStringLiteral("method"), QString::fromLatin1(operation.method)},
            {QStringLiteral("path"), operation.path},
            {QStringLiteral("description"), operation.description},
            {QStringLiteral("params"), parameters}};
}

QJsonObject connectorJson(const connectors::Connector &connector)
{
    QJsonArray operations;
    for (const connectors::Operation &operation : connector.operations)
        operations.append(operationJson(operation));
    return {{QStringLiteral("service"), connector.service},
            {QStringLiteral("base_url"), connector.baseUrl.toString()},
            {QStringLiteral("auth"), authKindName(connector.auth)},
            {QStringLiteral("auth_name"), connector.authName},
            {QStringLiteral("secrets"), QJsonArray::fromStringList(connector.secretKeys)},
            {QStringLiteral("source"), source(connector)},
            {QStringLiteral("tools"), operations}};
}

Exit list(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("connector list"),
             QStringLiteral("List every connector tool: built-in ones and the user's own from\n"
                            "<data dir>/connectors/*.toml. A definition file with an error is\n"
                            "left out and named on stderr.")},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const auto catalogue = loadCatalogue(context, store.dataDir());
        using Row = std::pair<const connectors::Connector *, const connectors::Operation *>;
        QList<Row> rows;
        for (const connectors::Connector &connector : catalogue.connectors()) {
            for (const connectors::Operation &operation : connector.operations)
                rows.append({&connector, &operation});
        }
        context.printList(
            rows,
            {QStringLiteral("TOOL"), QStringLiteral("SCOPE"), QStringLiteral("METHOD"),
             QStringLiteral("URL"), QStringLiteral("SECRETS"), QStringLiteral("SOURCE")},
            [](const Row &row) {
                QJsonObject json = operationJson(*row.second);
                json.insert(QStringLiteral("service"), row.first->service);
                json.insert(QStringLiteral("source"), source(*row.first));
                return json;
            },
            [](const Row &row) {
                return QStringList{row.second->tool,
                                   row.second->scope,
                                   QString::fromLatin1(row.second->method),
                                   row.first->baseUrl.toString() + row.second->path,
                                   row.first->secretKeys.join(QLatin1Char(',')),
                                   source(*row.first)};
            });
        return catalogue.errors().isEmpty() ? Exit::Ok : Exit::Failed;
    });
}

Exit show(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("connector show");
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {command,
                           QStringLiteral("Show a connector (by service or tool name): "
                                          "its URL, auth, secrets and tools."),
                           {{QStringLiteral("name"), QStringLiteral("A service or tool.")}}},
                          arguments))
        return *stop;
    const QString name = parser.positionalArguments().at(0);
    return withStore(context, [&](store::Store &store) {
        const auto catalogue = loadCatalogue(context, store.dataDir());
        for (const connectors::Connector &connector : catalogue.connectors()) {
            const bool named =
                connector.service == name ||
                std::any_of(connector.operations.cbegin(), connector.operations.cend(),
                            [&name](const connectors::Operation &operation) {
                                return operation.tool == name;
                            });
            if (!named)
                continue;
            if (context.json()) {
                context.printJson(connectorJson(connector));
                return Exit::Ok;
            }
            QTextStream &out = context.out();
            out << "service  " << connector.service << "\nbase url " << connector.baseUrl.toString()
                << "\nauth     " << authKindName(connector.auth)
                << (connector.authName.isEmpty() ? QString()
                                                 : QLatin1Char(' ') + connector.authName)
                << "\nsecrets  " << connector.secretKeys.join(QStringLiteral(", ")) << "\nsource   "
                << source(connector) << "\n";
            for (const connectors::Operation &operation : connector.operations) {
                out << "\n"
                    << operation.tool << "  (" << operation.scope << ")\n  " << operation.method
                    << ' ' << operation.path << "\n  " << operation.description << "\n";
                for (const connectors::Parameter &parameter : operation.parameters)
                    out << "  --arg " << parameter.name << "=<" << paramTypeName(parameter.type)
                        << ">  " << paramPlaceName(parameter.place)
                        << (parameter.segments ? " (its '/' parts each a segment)" : "")
                        << (parameter.required ? ", required" : "")
                        << (parameter.description.isEmpty()
                                ? QString()
                                : QStringLiteral("; ") + parameter.description)
                        << "\n";
            }
            return Exit::Ok;
        }
        return context.failure(
            makeError(QStringLiteral("connectors.unknown"),
                      QStringLiteral("no connector service or tool is named %1").arg(name)));
    });
}

Exit check(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("connector check");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral("Check a definition file as the app would read it; an error names the\n"
                            "file and line. Nothing is installed: copy a good file to\n"
                            "<data dir>/connectors/ to use it."),
             {{QStringLiteral("file"), QStringLiteral("A .toml file.")}}},
            arguments))
        return *stop;
    const QString path = parser.positionalArguments().at(0);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return context.failure(
            makeError(QStringLiteral("connectors.unreadable"),
                      QStringLiteral("%1: cannot be read: %2").arg(path, file.errorString())));
    const auto parsed =
        connectors::parseConnectors(file.read(connectors::maxDefinitionBytes + 1), path);
    if (!parsed)
        return context.failure(parsed.error());
    qsizetype tools = 0;
    QStringList services;
    for (const connectors::Connector &connector : *parsed) {
        tools += connector.operations.size();
        services << connector.service;
    }
    if (context.json()) {
        QJsonArray array;
        for (const connectors::Connector &connector : *parsed)
            array.append(connectorJson(connector));
        context.printJson(array);
    } else {
        context.out() << path << ": ok, " << tools << " tools of " << services.join(u',') << "\n";
    }
    return Exit::Ok;
}

Exit call(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("connector call");
    QCommandLineParser parser;
    const QCommandLineOption arg(QStringLiteral("arg"), QStringLiteral("One argument."),
                                 QStringLiteral("NAME=VALUE"));
    parser.addOption(arg);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Call a connector tool for a folder, the way its agent would: the folder's\n"
                 "grants decide (and the decision is audited), the host makes the request\n"
                 "with the folder's secret, and the answer comes back with the secret\n"
                 "scrubbed. Exit 1 when refused or when the service answers an error."),
             {{QStringLiteral("folder"), QStringLiteral("The folder.")},
              {QStringLiteral("tool"), QStringLiteral("The tool's name.")}}},
            arguments))
        return *stop;
    QJsonObject values;
    for (const QString &pair : parser.values(arg)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return context.usageError(
                QStringLiteral("%1: --arg '%2' is not NAME=VALUE").arg(command, pair));
        values.insert(pair.left(equals), pair.mid(equals + 1));
    }
    return withStore(context, [&](store::Store &store) {
        tools::TurnTools tools(
            store,
            tools::TurnBinding{actors::cliTry, parser.positionalArguments().at(0), QString(), 0, 0},
            [](const tools::TurnOrder &) -> Result<QString> {
                return makeError(QStringLiteral("tools.no-turns"),
                                 QStringLiteral("arizukoctl connector call "
                                                "starts no turns"));
            });
        const QString name = parser.positionalArguments().at(1);
        if (!tools.connectors().find(name).operation)
            return context.failure(makeError(
                QStringLiteral("connectors.unknown"),
                QStringLiteral("no connector tool is named %1 (arizukoctl connector list)")
                    .arg(name)));
        std::optional<tools::ToolOutcome> outcome;
        QEventLoop loop;
        tools.call(name, values, [&outcome, &loop](const tools::ToolOutcome &finished) {
            outcome = finished;
            loop.quit();
        });
        if (!outcome)
            loop.exec();
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("text"), outcome->text},
                                          {QStringLiteral("is_error"), outcome->isError}});
        else
            (outcome->isError ? context.err() : context.out()) << outcome->text << "\n";
        return outcome->isError ? Exit::Failed : Exit::Ok;
    });
}

} // namespace

Exit runConnector(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("list"), QStringLiteral("list"), list},
        {QStringLiteral("show"), QStringLiteral("show <service|tool>"), show},
        {QStringLiteral("check"), QStringLiteral("check <file>"), check},
        {QStringLiteral("call"), QStringLiteral("call <folder> <tool> [--arg NAME=VALUE]..."),
         call},
    };
    return runSubcommand(context, QStringLiteral("connector"), arguments, subcommands);
}

} // namespace arizuko::cli
