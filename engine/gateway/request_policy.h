#pragma once

// Which model requests the gateway forwards: an allowlist, per API, of the
// top-level keys, content block and input item types, tool types and beta
// header values the supported agents send (docs/model-gateway.md, "What a
// request may ask"). Anything else, above all what would make the provider
// reach a URL or another resource of the key's account (a URL image
// source, a file id, an MCP server, a server-side fetch or code tool,
// stored responses), is refused with the field it names, before a byte
// leaves the engine. Pure: no network, no Qt event loop.

#include "gateway/http_request.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace arizuko::gateway {

// The model endpoints the gateway serves.
enum class ModelCall
{
    Messages,    // POST /v1/messages
    CountTokens, // POST /v1/messages/count_tokens
    Responses,   // POST /v1/responses
};

// The domains a provider-side web search may reach: the folder's network
// allowlist (docs/security-model.md).
struct DomainFilter
{
    // Every host is allowed (an egress grant and no deny rule): a request's
    // own filter passes as it is.
    bool any = false;
    // Otherwise the search is limited to these (each with its subdomains).
    QStringList domains;
};

// A folder's say over its turns' model requests.
struct RequestPolicy
{
    // Model ids the guest may ask for: exact ids, or prefixes ending in '*'.
    // Empty: defaultModels() of the request's API.
    QStringList models;
    // The provider's own web search tool (Claude Code's WebSearch, Codex's
    // web_search): off refuses it; on, its domain filter is set to
    // `webSearchDomains` and a request that widens it is refused.
    bool webSearch = false;
    DomainFilter webSearchDomains;
};

// The model families the supported agents use unless told otherwise, and
// those the tests use: Claude Code's and pi's on the Messages API, Codex's
// on the Responses API.
QStringList defaultModels(ModelCall call);
bool modelAllowed(const QString &model, const QStringList &patterns);

// What becomes of one request: refused (`field` names what, `message` says
// why, for the guest and the turn's record), or forwarded as `body`, the
// gateway's own serialization of what it checked (so the upstream reads
// exactly what was checked: no duplicate key or trailing byte can make it
// read something else), with any filter the policy sets.
struct RequestVerdict
{
    QString field;
    QString message;
    QByteArray body;

    bool allowed() const { return field.isEmpty(); }
};

RequestVerdict checkModelRequest(ModelCall call, const HttpHeaders &headers, const QByteArray &body,
                                 const RequestPolicy &policy);

} // namespace arizuko::gateway
