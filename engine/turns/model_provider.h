#pragma once

// Which model answers a turn's agent: the Anthropic API with the user's key
// or OAuth token (from secrets, never the guest), a compatible server at
// another URL, or the offline demo model. Resolved per turn, so a secret set
// between turns counts from the next one.

#include "core/result.h"
#include "gateway/model_gateway.h"

#include <QMap>
#include <QString>

namespace arizuko::store {
class Store;
}
namespace arizuko::secrets {
class SecretStore;
}

namespace arizuko::turns {

enum class ModelProviderChoice
{
    Auto,   // the API key if one is set, else the OAuth token; neither is an error
    ApiKey, // secret ANTHROPIC_API_KEY
    OAuth,  // secret ANTHROPIC_OAUTH_TOKEN
    Demo,   // the scripted demo model: no key, no network
};

Result<ModelProviderChoice> parseModelProviderChoice(const QString &name);
QString modelProviderChoiceName(ModelProviderChoice choice);

// The secret names, looked up in the turn's folder, then each ancestor,
// then the base folder ''.
inline const QString apiKeySecret = QStringLiteral("ANTHROPIC_API_KEY");
inline const QString oauthTokenSecret = QStringLiteral("ANTHROPIC_OAUTH_TOKEN");
// The key of an agent that speaks the OpenAI Responses API (Codex).
inline const QString openAIKeySecret = QStringLiteral("OPENAI_API_KEY");
// The error of a turn that found neither (the window offers its fixes on it).
inline const QString noCredentialErrorCode = QStringLiteral("model.no-credential");

struct ModelProviderRequest
{
    ModelProviderChoice choice = ModelProviderChoice::Auto;
    // The API the turn's agent speaks: Claude Code and pi the Anthropic
    // Messages API, Codex the OpenAI Responses API (with OPENAI_API_KEY).
    gateway::ModelApi api = gateway::ModelApi::AnthropicMessages;
    QString upstreamUrl;  // empty: the Anthropic API, or OpenAI's
    QString scriptPath;   // demo: a script file instead of the built-in demo
    QString folder;
    // ${NAME} values for the demo script (ALLOWED_URL, DENIED_URL, FOLDER).
    QMap<QString, QString> scriptVariables;
    // Secrets opened once with their master key (the runner's); null opens
    // them here, which may wait for the OS keyring.
    secrets::SecretStore *secrets = nullptr;
};

Result<gateway::ProviderSettings> resolveModelProvider(store::Store &store,
                                                       const ModelProviderRequest &request);

} // namespace arizuko::turns
