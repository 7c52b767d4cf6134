#pragma once

// Where a turn's model requests go, and with which credential.

#include "gateway/request_policy.h"
#include "gateway/scripted_model.h"

#include <QByteArray>
#include <QUrl>
#include <memory>

namespace arizuko::gateway {

enum class ProviderKind
{
    AnthropicApiKey, // x-api-key
    OAuthToken,      // Authorization: Bearer, with the OAuth beta
    OpenAIApiKey,    // Authorization: Bearer, to the OpenAI Responses API
    Demo,            // the in-process ScriptedModel, no network at all
};

// The model APIs an agent may speak: Claude Code and pi the Anthropic
// Messages API, Codex the OpenAI Responses API.
enum class ModelApi
{
    AnthropicMessages, // POST /v1/messages
    OpenAIResponses,   // POST /v1/responses
};

// Whether a turn's gateway serves `api`: a credential reaches only the API
// it belongs to; the demo model answers both.
constexpr bool providerSpeaks(ProviderKind kind, ModelApi api)
{
    switch (kind) {
    case ProviderKind::AnthropicApiKey:
    case ProviderKind::OAuthToken:
        return api == ModelApi::AnthropicMessages;
    case ProviderKind::OpenAIApiKey:
        return api == ModelApi::OpenAIResponses;
    case ProviderKind::Demo:
        return true;
    }
    return false;
}

inline QUrl anthropicUpstream()
{
    return QUrl(QStringLiteral("https://api.anthropic.com"));
}

inline QUrl openAIUpstream()
{
    return QUrl(QStringLiteral("https://api.openai.com"));
}

struct ProviderSettings
{
    ProviderKind kind = ProviderKind::Demo;
    // The server the provider's API lives on (anthropicUpstream or
    // openAIUpstream, or a compatible one); requests go to nothing else.
    QUrl upstream = anthropicUpstream();
    QByteArray credential; // API key or OAuth token; empty for Demo; never logged
    std::shared_ptr<const ScriptedModel> script; // for Demo
    // What the turn's folder lets its guest ask of the model (the demo's
    // requests are checked too, so the demo reads as a real turn).
    RequestPolicy requests;
};

// The beta the API requires with an OAuth bearer token.
inline constexpr QByteArrayView oauthBeta = "oauth-2025-04-20";

} // namespace arizuko::gateway
