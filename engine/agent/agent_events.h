#pragma once

// Claude Code's stream-json output, one line at a time, as the turn events
// the store keeps and the window renders (schema: docs/turns.md, "Agent
// events"). The agent is untrusted: a line that is not what Claude Code
// writes is kept as plain output, never dropped and never trusted further.

#include <QJsonObject>
#include <QList>
#include <QString>

namespace arizuko::agent {

struct AgentEvent
{
    QString kind; // init, text, thinking, tool_use, tool_result, result, output
    QJsonObject json;
};

QList<AgentEvent> agentEventsFromLine(const QString &line);

// One line for a tool call: the tool and its most telling argument
// ("Bash: ls -la", "Write: notes.md"), cut to `width` characters.
QString toolCallSummary(const QString &name, const QJsonObject &input, int width = 80);

} // namespace arizuko::agent
