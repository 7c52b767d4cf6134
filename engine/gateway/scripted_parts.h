#pragma once

// What the scripted model's two APIs (scripted_model.cpp for Anthropic's
// Messages, scripted_responses.cpp for OpenAI's Responses) build replies
// from alike.

#include "gateway/scripted_model.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <algorithm>

namespace arizuko::gateway::scripted {

inline QString randomId(QStringView prefix)
{
    quint32 words[3];
    QRandomGenerator::global()->fillRange(words);
    return prefix.toString() +
           QString::fromLatin1(
               QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex());
}

// What a reply of this size would cost in tokens, near enough for a script.
inline qint64 roughTokens(qsizetype bytes)
{
    return std::max<qint64>(1, bytes / 4);
}

inline const HttpHeaders jsonHeaders{{"Content-Type", "application/json"}};
inline const HttpHeaders streamHeaders{{"Content-Type", "text/event-stream"},
                                       {"Cache-Control", "no-cache"}};

inline ScriptedReply jsonReply(int status, const QByteArray &body)
{
    ScriptedReply reply;
    reply.status = status;
    reply.headers = jsonHeaders;
    reply.body = body;
    return reply;
}

// The status and headers of a scripted error; the body is the API's own.
inline void errorReply(ScriptedReply &reply, const ScriptedError &error)
{
    reply.status = error.status;
    reply.headers = jsonHeaders;
    if (error.shouldRetry)
        reply.headers.append(HttpHeader("x-should-retry", *error.shouldRetry ? "true" : "false"));
}

// Each agent's shell tool and the name of its command argument: Claude
// Code's Bash, pi's bash, Codex's exec_command (docs/agents.md). A script
// written for one drives the others: a call of one of these, when the
// request does not offer that tool, becomes the call of the one it offers.
struct ShellTool
{
    QLatin1StringView name;
    QLatin1StringView commandKey;
};
inline constexpr ShellTool shellTools[] = {
    {QLatin1StringView("Bash"), QLatin1StringView("command")},
    {QLatin1StringView("bash"), QLatin1StringView("command")},
    {QLatin1StringView("exec_command"), QLatin1StringView("cmd")}};

// Codex groups each MCP server's tools in the Responses API as
// {type: "namespace", name: "mcp__<server>", tools: [{name}]}; such a tool
// is known here by its full name, "mcp__<server>__<tool>", as Claude Code
// names it.
inline QString namespacedToolName(const QString &space, const QString &name)
{
    return space + QStringLiteral("__") + name;
}

// The namespace of a model's own plain tools: a tool in it is called by its
// bare name (Codex's code mode offers `exec` in it).
inline bool isPlainNamespace(const QString &space)
{
    return space == QLatin1String("functions");
}

// The names of the tools offered: Anthropic's {name}, the Responses API's
// {type: "function", name} and its namespaces' tools.
inline QStringList offeredTools(const QJsonArray &tools)
{
    QStringList names;
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        const QString name = tool.value(QStringLiteral("name")).toString();
        if (tool.value(QStringLiteral("type")).toString() != QLatin1String("namespace")) {
            names << name;
            continue;
        }
        for (const QJsonValue &inner : tool.value(QStringLiteral("tools")).toArray()) {
            const QString innerName = inner.toObject().value(QStringLiteral("name")).toString();
            names << (isPlainNamespace(name) ? innerName : namespacedToolName(name, innerName));
        }
    }
    return names;
}

inline ScriptedToolUse forOfferedTools(const ScriptedToolUse &use, const QStringList &offered)
{
    if (offered.contains(use.name))
        return use;
    const auto scripted =
        std::find_if(std::begin(shellTools), std::end(shellTools),
                     [&use](const ShellTool &tool) { return use.name == tool.name; });
    if (scripted == std::end(shellTools))
        return use;
    for (const ShellTool &tool : shellTools) {
        if (!offered.contains(tool.name))
            continue;
        ScriptedToolUse adapted = use;
        adapted.name = tool.name;
        adapted.input = {{tool.commandKey, use.input.value(scripted->commandKey)}};
        return adapted;
    }
    return use;
}

} // namespace arizuko::gateway::scripted
