#include "tools/tool_catalogue.h"

#include <QJsonArray>

namespace arizuko::tools {
namespace {

// A JSON Schema object whose properties are all strings.
QJsonObject stringSchema(const QList<std::pair<QString, QString>> &properties,
                         const QStringList &required)
{
    QJsonObject described;
    for (const auto &[name, description] : properties)
        described.insert(name, QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                           {QStringLiteral("description"), description}});
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), described},
            {QStringLiteral("required"), QJsonArray::fromStringList(required)},
            {QStringLiteral("additionalProperties"), false}};
}

const QString folderHelp = QStringLiteral("a folder path such as corp/eng");

QList<ToolSpec> buildCatalogue()
{
    const QString host = QStringLiteral("a host name such as github.com (covers its subdomains)");
    return {
        {QStringLiteral("send_message"),
         QStringLiteral("Post a message to this conversation's topic, where the user reads it."),
         stringSchema({{QStringLiteral("text"), QStringLiteral("the message")}},
                      {QStringLiteral("text")}),
         ToolTarget::OwnFolder, &sendMessage},
        {QStringLiteral("fork_topic"),
         QStringLiteral("Fork this topic: a new topic that continues from a copy of this "
                        "conversation."),
         stringSchema({{QStringLiteral("name"), QStringLiteral("the new topic's name (optional)")}},
                      {}),
         ToolTarget::OwnFolder, nullptr, &forkTopic},
        {QStringLiteral("network_list"),
         QStringLiteral("List the hosts this folder's turns may and may not reach."),
         stringSchema({}, {}), ToolTarget::OwnFolder, &networkList},
        {QStringLiteral("network_allow"),
         QStringLiteral("Allow a host for this folder. Takes effect from the next turn: this "
                        "turn's proxy keeps its list."),
         stringSchema({{QStringLiteral("host"), host}}, {QStringLiteral("host")}),
         ToolTarget::OwnFolder, &networkAllow},
        {QStringLiteral("network_deny"),
         QStringLiteral("Deny a host for this folder (a deny wins over every allow). Takes "
                        "effect from the next turn."),
         stringSchema({{QStringLiteral("host"), host}}, {QStringLiteral("host")}),
         ToolTarget::OwnFolder, &networkDeny},
        {QStringLiteral("delegate_group"),
         QStringLiteral("Hand work to a subfolder's agent: queues a turn there and returns at "
                        "once, without its answer."),
         stringSchema({{QStringLiteral("folder"), folderHelp + QStringLiteral(", below this one")},
                       {QStringLiteral("prompt"), QStringLiteral("what to do")},
                       {QStringLiteral("topic"),
                        QStringLiteral("the subfolder's topic (optional; default this topic's "
                                       "name)")}},
                      {QStringLiteral("folder"), QStringLiteral("prompt")}),
         ToolTarget::Subfolder, &delegateGroup},
        {QStringLiteral("escalate_group"),
         QStringLiteral("Ask the parent folder's agent: queues a turn there whose final answer "
                        "is posted back to this topic as a message."),
         stringSchema({{QStringLiteral("prompt"), QStringLiteral("the question")}},
                      {QStringLiteral("prompt")}),
         ToolTarget::ParentFolder, &escalateGroup},
        {QStringLiteral("observe_group"),
         QStringLiteral("Watch another folder: its new messages reach this topic as context at "
                        "the start of its next turn (the newest 10, at most 4000 characters)."),
         stringSchema({{QStringLiteral("folder"), folderHelp}}, {QStringLiteral("folder")}),
         ToolTarget::OtherFolder, &observeGroup},
        {QStringLiteral("unobserve_group"),
         QStringLiteral("Stop watching a folder this topic observes."),
         stringSchema({{QStringLiteral("folder"), folderHelp}}, {QStringLiteral("folder")}),
         ToolTarget::OtherFolder, &unobserveGroup},
    };
}

} // namespace

const QList<ToolSpec> &toolCatalogue()
{
    static const QList<ToolSpec> catalogue = buildCatalogue();
    return catalogue;
}

const ToolSpec *findTool(const QString &name)
{
    for (const ToolSpec &tool : toolCatalogue()) {
        if (tool.name == name)
            return &tool;
    }
    return nullptr;
}

QString toolAction(const QString &name)
{
    return QStringLiteral("mcp:") + name;
}

QStringList toolActions()
{
    QStringList actions;
    for (const ToolSpec &tool : toolCatalogue())
        actions << toolAction(tool.name);
    return actions;
}

} // namespace arizuko::tools
