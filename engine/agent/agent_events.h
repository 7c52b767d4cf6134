#pragma once

// Claude Code's stream-json output, one line at a time, as the turn events
// the store keeps and the window renders (schema: docs/turns.md, "Agent
// events"). The agent is untrusted: a line that is not what Claude Code
// writes is kept as plain output, never dropped and never trusted further.

#include <QJsonArray>
#include <QJsonObject>
#include <QLatin1String>
#include <QList>
#include <QString>
#include <optional>

namespace arizuko::agent {

struct AgentEvent
{
    QString kind; // init, text, thinking, tool_use, tool_result, result, output
    QJsonObject json;
};

QList<AgentEvent> agentEventsFromLine(const QString &line);

// What every agent's reader starts with (Claude Code's above, Codex's,
// pi's): the JSON object `line` holds, or nothing when it holds none; a
// line a reader cannot read is kept whole as outputEvent(line).
std::optional<QJsonObject> jsonObjectOfLine(const QString &line);
AgentEvent outputEvent(const QString &line);
// A member of an agent's object as a string; empty when absent or not one.
QString stringMember(const QJsonObject &object, const char *key);

// An assistant message's content blocks as text, thinking and tool_use
// events. Agents name the tool-call block and its input differently (Claude
// Code: tool_use/input, pi: toolCall/arguments); the events are the same.
struct ToolCallBlock
{
    QLatin1String type;
    QLatin1String input;
};
QList<AgentEvent> assistantContentEvents(const QJsonArray &content, const QString &messageId,
                                         ToolCallBlock toolCall);

// A tool result's content, a string or a list of blocks: its text, and what
// else there was named.
QString toolResultText(const QJsonValue &content);

// One line for a tool call: the tool and its most telling argument
// ("Bash: ls -la", "Write: notes.md"), cut to `width` characters.
QString toolCallSummary(const QString &name, const QJsonObject &input, int width = 80);

} // namespace arizuko::agent
