#pragma once

// The MCP server of one turn: JSON-RPC 2.0 over Streamable HTTP POSTs on
// the gateway's /mcp. Lifecycle (initialize, protocol version negotiation,
// notifications/initialized, ping), tools/list and tools/call; no
// server-to-client stream, no resources or prompts. See docs/tools.md.

#include "gateway/model_gateway.h"
#include "tools/turn_tools.h"

#include <QJsonObject>
#include <QJsonValue>
#include <variant>

namespace arizuko::tools {

// Newest first; an unknown requested version gets the newest.
QStringList supportedProtocolVersions();

class McpServer
{
public:
    explicit McpServer(TurnTools &tools);

    // One POSTed body: a JSON-RPC request gets its reply, a notification or
    // a client's response gets 202, a body that is not a JSON-RPC message
    // gets 400 with a JSON-RPC error. `reply` is called once: at once, or
    // later from this thread when a tool works on a worker (fork_topic).
    void handle(const QByteArray &body, const gateway::ToolReplyTo &reply);

private:
    // A method's JSON-RPC error: code and message.
    struct RpcError
    {
        int code;
        QString message;
    };
    using MethodResult = std::variant<QJsonObject, RpcError>;

    QJsonObject dispatch(const QString &method, const QJsonObject &params, const QJsonValue &id);
    QJsonObject initialize(const QJsonObject &params) const;
    MethodResult listTools();
    void callTool(const QJsonObject &params, const QJsonValue &id,
                  const gateway::ToolReplyTo &reply);

    TurnTools &m_tools;
};

} // namespace arizuko::tools
