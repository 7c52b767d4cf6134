#pragma once

// Where a turn's model requests go, and with which credential.

#include "gateway/scripted_model.h"

#include <QByteArray>
#include <QUrl>

#include <memory>

namespace arizuko::gateway {

enum class ProviderKind {
    AnthropicApiKey, // x-api-key
    OAuthToken,      // Authorization: Bearer, with the OAuth beta
    Demo,            // the in-process ScriptedModel, no network at all
};

struct ProviderSettings
{
    ProviderKind kind = ProviderKind::Demo;
    // Any Anthropic-compatible server; requests go to nothing else.
    QUrl upstream = QUrl(QStringLiteral("https://api.anthropic.com"));
    QByteArray credential; // API key or OAuth token; empty for Demo; never logged
    std::shared_ptr<const ScriptedModel> script; // for Demo
};

// The beta the API requires with an OAuth bearer token.
inline constexpr QByteArrayView oauthBeta = "oauth-2025-04-20";

} // namespace arizuko::gateway
