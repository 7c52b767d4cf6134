#pragma once

// Every tool a turn can be offered, with the folder its grant is checked on.
// A tool `x` is the action `mcp:x` in the grants (docs/control-plane.md).

#include "tools/tool_context.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace arizuko::tools {

// Which folder a call is about: the grant's scope is checked against it.
enum class ToolTarget
{
    OwnFolder,    // the turn's folder
    ParentFolder, // the folder above it
    Subfolder,    // the `folder` argument, below the turn's folder
    OtherFolder,  // the `folder` argument, any folder but the turn's own
};

using ToolRun = ToolOutcome (*)(ToolContext &context, const QJsonObject &arguments);
// A tool that finishes later: it calls `finished` once, from the engine thread.
using ToolStart = void (*)(ToolContext &context, const QJsonObject &arguments,
                           ToolFinished finished);

struct ToolSpec
{
    QString name;
    QString description;
    QJsonObject inputSchema;
    ToolTarget target = ToolTarget::OwnFolder;
    ToolRun run = nullptr;     // set for a tool that answers at once,
    ToolStart start = nullptr; // or this one for a tool that answers later
};

const QList<ToolSpec> &toolCatalogue();
const ToolSpec *findTool(const QString &name);
QString toolAction(const QString &name);
// mcp:<tool> for every tool, the catalogue effectiveActions() expands over.
QStringList toolActions();

// The tools, by file.
ToolOutcome sendMessage(ToolContext &context, const QJsonObject &arguments);
void forkTopic(ToolContext &context, const QJsonObject &arguments, ToolFinished finished);
ToolOutcome networkList(ToolContext &context, const QJsonObject &arguments);
ToolOutcome networkAllow(ToolContext &context, const QJsonObject &arguments);
ToolOutcome networkDeny(ToolContext &context, const QJsonObject &arguments);
ToolOutcome delegateGroup(ToolContext &context, const QJsonObject &arguments);
ToolOutcome escalateGroup(ToolContext &context, const QJsonObject &arguments);
ToolOutcome observeGroup(ToolContext &context, const QJsonObject &arguments);
ToolOutcome unobserveGroup(ToolContext &context, const QJsonObject &arguments);

} // namespace arizuko::tools
