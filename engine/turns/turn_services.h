#pragma once

// What the host serves one turn's guest while it runs: the model gateway on
// the host side of its network (the only place the agent reaches a model,
// with this turn's token) and the turn's tools at /mcp on it, bound to this
// turn alone; and, for a turn that answers another topic (escalate_group),
// that answer.

#include "core/result.h"
#include "gateway/model_gateway.h"
#include "libvirt/turn_network.h"
#include "turns/turn_environment.h"

#include <QJsonObject>
#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace arizuko::tools {
class McpServer;
class TurnTools;
} // namespace arizuko::tools

namespace arizuko::turns {

// Who the services serve.
struct TurnServiceBinding
{
    QString turnId;
    QString folder;
    QString topic;
    int depth = 0;
};

class TurnServices final : public QObject
{
    Q_OBJECT

public:
    TurnServices(TurnEnvironment &environment, TurnServiceBinding binding,
                 QObject *parent = nullptr);
    ~TurnServices() override;

    // Listens on the subnet's host address with a fresh token. Without a
    // model (a warm-start spare's, made before its turn) only the tools
    // answer until bind().
    Result<void> start(const libvirt::TurnSubnet &subnet,
                       const std::optional<gateway::ProviderSettings> &model);
    // A spare's services become its turn's: the tools are bound to the
    // turn (made afresh, so nothing of the spare's time carries over), and
    // the model is served with the turn's provider, resolved now.
    void bind(TurnServiceBinding binding, const gateway::ProviderSettings &model);
    bool isListening() const { return m_gateway != nullptr; }
    QByteArray token() const { return m_token; }
    // The secrets the folder's shell:env:<KEY> grants name, by key, read on
    // a worker (TurnTools::readShellEnvironment); none without tools.
    void readShellEnvironment(std::function<void(const QJsonObject &)> read);
    // Whether the grants would put any (TurnTools::grantsShellEnvironment).
    bool grantsShellEnvironment();
    // The gateway's own count of this turn's model use; none before start().
    std::optional<gateway::ModelUsage> usage() const;
    // Closes the gateway (its token dies with it), then the tools.
    void stop();

signals:
    // Something to keep in the transcript: model, gateway, message, tool,
    // connector.
    void event(const QString &kind, const QJsonObject &json);
    // The model API refused the agent: the turn ends now with the reason
    // instead of at its deadline (the agent would retry for minutes).
    void upstreamFailed(const arizuko::Error &error);

private:
    void startTools();

    TurnEnvironment &m_environment;
    TurnServiceBinding m_binding;
    QByteArray m_token;
    std::unique_ptr<tools::TurnTools> m_tools;
    std::unique_ptr<tools::McpServer> m_mcp;
    std::unique_ptr<gateway::ModelGateway> m_gateway;
};

// escalate_group's turn: its final answer (or a note that there is none)
// goes to the asking topic; the `reply` event to record says where.
QJsonObject postTurnReply(store::Store &store, const TurnRequest &request, const QString &turnName,
                          const QString &outcome, const QString &answer);

} // namespace arizuko::turns
