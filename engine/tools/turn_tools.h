#pragma once

// The tools of one turn, as its folder's grants allow them right now: what
// tools/list shows, and every tools/call, decided by Grants::decide() (so
// audited) before any tool code runs. Bound to one turn for its lifetime.
// Besides the catalogue's tools, every connector operation (read from the
// data directory when the turn starts) is a tool whose grant action is its
// ext: scope; the host makes its HTTP call (connectors/connector_broker.h).

#include "core/result.h"
#include "policy/policy.h"
#include "tools/tool_catalogue.h"
#include "tools/tool_context.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <functional>
#include <memory>
#include <variant>

namespace arizuko::connectors {
class ConnectorBroker;
class ConnectorCatalogue;
} // namespace arizuko::connectors

namespace arizuko::tools {

class TurnTools final : public QObject
{
    Q_OBJECT

public:
    TurnTools(store::Store &store, TurnBinding binding, QueueTurn queue, QObject *parent = nullptr);
    ~TurnTools() override;

    const connectors::ConnectorCatalogue &connectors() const { return *m_connectors; }
    connectors::ConnectorBroker &connectorBroker() { return *m_broker; }

    const TurnBinding &binding() const { return m_binding; }

    // The tools some grant lets the folder call on some folder the tool can
    // address (its own, its parent, its subfolders, any other).
    Result<QList<const ToolSpec *>> listed();
    using ShellEnvironmentRead = std::function<void(const QJsonObject &environment)>;
    // The secrets shell:env:<KEY> grants put into the agent's environment in
    // the guest: each key an allow row names for this folder that the
    // grants allow now on it, from the nearest folder up that holds it.
    // Audited as shell-env.granted with the key names (never the values);
    // a granted key no folder holds is left out and named there. When the
    // grants or secrets cannot be read, nothing enters (shell-env.failed).
    // The values are read on a worker (opening the key store may wait on an
    // OS keyring, as for a connector's call), so `read` gets them later on
    // this thread, never after this object is gone; at once when no grant
    // names a key.
    void readShellEnvironment(ShellEnvironmentRead read);
    // Whether readShellEnvironment() would put a key into the agent's
    // environment, from the grants alone: no secret is read and nothing is
    // audited. True when the grants cannot be read (it cannot tell).
    bool grantsShellEnvironment();
    // Decides the call on the folder it addresses, then runs it, and hands
    // the outcome to `finished`: at once, or later from this thread for a
    // tool working on a worker (never after this object is gone). A refusal
    // is an outcome the agent reads, never a protocol error.
    void call(const QString &name, const QJsonObject &arguments, ToolFinished finished);

signals:
    // A message the turn posted to its topic: id, folder, topic, role, text.
    void messagePosted(const QJsonObject &message);
    // One decided call: tool, scope, allowed, reason, grant (the deciding row's id).
    void callDecided(const QJsonObject &decision);
    // One connector call as audited: tool, method, path (no query), status,
    // HTTP status, latency, key names (ConnectorBroker::called).
    void connectorCalled(const QJsonObject &call);

private:
    // The call's arguments, normalised, when the grants allow it; else the
    // outcome that refuses it.
    std::variant<QJsonObject, ToolOutcome> admit(const QString &name, const QJsonObject &sent);
    // The folder a call is about, or why the call cannot be about one.
    Result<QString> callScope(const ToolSpec &tool, const QJsonObject &arguments);
    Result<QStringList> candidateScopes(const ToolSpec &tool);
    // The keys this folder's shell:env grants allow on it now.
    Result<QStringList> grantedShellKeys();
    void auditShellEnvironmentFailure(const Error &error);
    // A catalogue tool or a connector operation by name; null when neither.
    const ToolSpec *spec(const QString &name) const;
    // The grant action of a tool: mcp:<name>, or a connector's ext: scope.
    QString actionOf(const QString &name) const;
    // m_queue behind the breadth caps: the turn's own count, and the turns
    // the folder's agents started in the last hour (audited as
    // tools.turn-started, so the count holds across turns and processes).
    Result<QString> startTurn(const TurnOrder &order);

    store::Store &m_store;
    policy::Policy m_policy;
    TurnBinding m_binding;
    QueueTurn m_queue;
    QueueTurn m_startTurn;
    int m_turnsStarted = 0;
    std::unique_ptr<connectors::ConnectorCatalogue> m_connectors;
    QList<ToolSpec> m_connectorTools;
    connectors::ConnectorBroker *m_broker;
};

// For tests: called on the thread readShellEnvironment() reads the secrets
// on, before it reads them (to see which thread that is). Null in the program.
using ShellSecretsReadHook = void (*)();
void setShellSecretsReadHook(ShellSecretsReadHook hook);

} // namespace arizuko::tools
