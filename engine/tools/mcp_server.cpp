#include "tools/mcp_server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace arizuko::tools {
namespace {

// JSON-RPC 2.0's error codes.
constexpr int parseError = -32700;
constexpr int invalidRequest = -32600;
constexpr int methodNotFound = -32601;
constexpr int invalidParams = -32602;
constexpr int internalError = -32603;

QByteArray encode(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonObject errorReply(const QJsonValue &id, int code, const QString &message)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

QJsonObject resultReply(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("result"), result}};
}

gateway::ToolReply malformed(int code, const QString &message)
{
    return {400, encode(errorReply(QJsonValue::Null, code, message))};
}

QJsonObject toolJson(const ToolSpec &tool)
{
    return {{QStringLiteral("name"), tool.name},
            {QStringLiteral("description"), tool.description},
            {QStringLiteral("inputSchema"), tool.inputSchema}};
}

} // namespace

QStringList supportedProtocolVersions()
{
    return {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"),
            QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
}

McpServer::McpServer(TurnTools &tools)
    : m_tools(tools)
{}

void McpServer::handle(const QByteArray &body, const gateway::ToolReplyTo &reply)
{
    QJsonParseError parse{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &parse);
    if (parse.error != QJsonParseError::NoError)
        return reply(
            malformed(parseError, QStringLiteral("not JSON: %1").arg(parse.errorString())));
    // Batches left MCP in 2025-06-18, and no client here sends them.
    if (!document.isObject())
        return reply(malformed(invalidRequest, QStringLiteral("one JSON-RPC object per request")));
    const QJsonObject message = document.object();
    if (message.value(QStringLiteral("jsonrpc")).toString() != QLatin1String("2.0"))
        return reply(malformed(invalidRequest, QStringLiteral("jsonrpc must be \"2.0\"")));
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonValue method = message.value(QStringLiteral("method"));
    // A notification (no id) or the client's answer to us (no method) is
    // acknowledged; none needs anything done.
    if (id.isUndefined() || method.isUndefined())
        return reply({202, {}});
    if (!method.isString() || !(id.isString() || id.isDouble()))
        return reply(malformed(invalidRequest, QStringLiteral("method must be a string and id a "
                                                              "string or a number")));
    const QJsonValue params = message.value(QStringLiteral("params"));
    if (!params.isUndefined() && !params.isObject())
        return reply({200, encode(errorReply(id, invalidParams,
                                             QStringLiteral("params must be an object")))});
    if (method.toString() == QLatin1String("tools/call"))
        return callTool(params.toObject(), id, reply);
    reply({200, encode(dispatch(method.toString(), params.toObject(), id))});
}

QJsonObject McpServer::dispatch(const QString &method, const QJsonObject &params,
                                const QJsonValue &id)
{
    MethodResult result;
    if (method == QLatin1String("initialize"))
        result = initialize(params);
    else if (method == QLatin1String("ping"))
        result = QJsonObject{};
    else if (method == QLatin1String("tools/list"))
        result = listTools();
    else
        // Claude Code first probes `server/discover` (a newer protocol) and
        // falls back to initialize on this answer.
        return errorReply(id, methodNotFound, QStringLiteral("no method %1").arg(method));
    if (const auto *error = std::get_if<RpcError>(&result))
        return errorReply(id, error->code, error->message);
    return resultReply(id, std::get<QJsonObject>(result));
}

QJsonObject McpServer::initialize(const QJsonObject &params) const
{
    const QStringList supported = supportedProtocolVersions();
    const QString asked = params.value(QStringLiteral("protocolVersion")).toString();
    return {{QStringLiteral("protocolVersion"),
             supported.contains(asked) ? asked : supported.first()},
            {QStringLiteral("capabilities"),
             QJsonObject{{QStringLiteral("tools"),
                          QJsonObject{{QStringLiteral("listChanged"), false}}}}},
            {QStringLiteral("serverInfo"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("arizuko")},
                         {QStringLiteral("version"), QStringLiteral("1")}}},
            {QStringLiteral("instructions"),
             QStringLiteral("Tools of the Arizuko host for folder %1, topic %2. Each call is "
                            "checked against the folder's grants when it is made.")
                 .arg(m_tools.binding().folder, m_tools.binding().topic)}};
}

McpServer::MethodResult McpServer::listTools()
{
    const auto listed = m_tools.listed();
    if (!listed)
        return RpcError{internalError, listed.error().message};
    QJsonArray tools;
    for (const ToolSpec *tool : *listed)
        tools.append(toolJson(*tool));
    return QJsonObject{{QStringLiteral("tools"), tools}};
}

void McpServer::callTool(const QJsonObject &params, const QJsonValue &id,
                         const gateway::ToolReplyTo &reply)
{
    const QJsonValue name = params.value(QStringLiteral("name"));
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!name.isString() || (!arguments.isUndefined() && !arguments.isObject()))
        return reply({200, encode(errorReply(id, invalidParams,
                                             QStringLiteral("tools/call needs a name and an "
                                                            "arguments object")))});
    m_tools.call(name.toString(), arguments.toObject(), [id, reply](const ToolOutcome &outcome) {
        const QJsonArray content{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                             {QStringLiteral("text"), outcome.text}}};
        reply({200, encode(resultReply(id, {{QStringLiteral("content"), content},
                                            {QStringLiteral("isError"), outcome.isError}}))});
    });
}

} // namespace arizuko::tools
