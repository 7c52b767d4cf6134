#include "turns/model_provider.h"

#include "core/actors.h"
#include "folders/folder_names.h"
#include "folders/model_settings.h"
#include "gateway/scripted_model.h"
#include "policy/host_name.h"
#include "policy/policy.h"
#include "secrets/secret_store.h"

#include <QUrl>

namespace arizuko::turns {
namespace {

// The nearest folder's value wins, as with every other per-folder setting:
// the folder itself, then each parent, then the base ''.
Result<QByteArray> nearestSecret(secrets::SecretStore &secrets,
                                 const QList<secrets::SecretInfo> &stored, const QString &folder,
                                 const QString &key)
{
    for (QString scope = folder;; scope = folders::parentFolder(scope)) {
        for (const secrets::SecretInfo &info : stored) {
            if (info.folder == scope && info.key == key)
                return secrets.get(secrets::SecretScope{scope}, key);
        }
        if (scope.isEmpty())
            return QByteArray();
    }
}

Error noOpenAIKey(const QString &folder)
{
    return makeError(noCredentialErrorCode,
                     QStringLiteral("no OpenAI API key for folder '%1': set one with `arizukoctl "
                                    "secret set %2` (the key on stdin), or use the offline demo "
                                    "model (`arizukoctl run --model-provider demo`)")
                         .arg(folder, openAIKeySecret));
}

Error noCredential(const QString &folder)
{
    return makeError(
        noCredentialErrorCode,
        QStringLiteral(
            "no model credential for folder '%1': set one with `arizukoctl secret set "
            "%2` (the key on stdin; %3 for an OAuth token), or use the offline demo model "
            "(`arizukoctl run --model-provider demo`, or ARIZUKO_MODEL_PROVIDER=demo)")
            .arg(folder, apiKeySecret, oauthTokenSecret));
}

// The domains a provider-side web search may reach: the folder's allowed
// hosts, less any a deny rule touches (a filter cannot say "but not"), and
// no IP literal (a search filter takes domains).
gateway::DomainFilter webSearchDomains(const policy::NetworkPolicy &network)
{
    gateway::DomainFilter filter;
    filter.any = network.allowAll && network.deny.isEmpty();
    for (const QString &allowed : network.allow) {
        if (policy::isIpLiteral(allowed))
            continue;
        bool touched = false;
        for (const QString &denied : network.deny)
            touched = touched || policy::ruleMatchesHost(allowed, denied) ||
                      policy::ruleMatchesHost(denied, allowed);
        if (!touched)
            filter.domains << allowed;
    }
    return filter;
}

Result<gateway::RequestPolicy> requestPolicy(store::Store &store, const QString &folder)
{
    const auto settings = folders::modelSettings(store, folder);
    if (!settings)
        return settings.error();
    gateway::RequestPolicy requests;
    requests.models = settings->models.value_or(QStringList());
    requests.webSearch = settings->providerWebSearch.value_or(false);
    if (requests.webSearch) {
        policy::Policy policy(store);
        const auto network = policy.network().resolve(folder);
        if (!network)
            return network.error();
        requests.webSearchDomains = webSearchDomains(*network);
    }
    return requests;
}

Result<gateway::ProviderSettings> resolveCredential(store::Store &store,
                                                    const ModelProviderRequest &request);

} // namespace

Result<ModelProviderChoice> parseModelProviderChoice(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String("auto"))
        return ModelProviderChoice::Auto;
    if (name == QLatin1String("api-key"))
        return ModelProviderChoice::ApiKey;
    if (name == QLatin1String("oauth"))
        return ModelProviderChoice::OAuth;
    if (name == QLatin1String("demo"))
        return ModelProviderChoice::Demo;
    return makeError(QStringLiteral("model.bad-provider"),
                     QStringLiteral("model provider '%1' is not one of auto, api-key, oauth, demo")
                         .arg(name));
}

QString modelProviderChoiceName(ModelProviderChoice choice)
{
    switch (choice) {
    case ModelProviderChoice::Auto:
        return QStringLiteral("auto");
    case ModelProviderChoice::ApiKey:
        return QStringLiteral("api-key");
    case ModelProviderChoice::OAuth:
        return QStringLiteral("oauth");
    case ModelProviderChoice::Demo:
        return QStringLiteral("demo");
    }
    return {};
}

Result<gateway::ProviderSettings> resolveModelProvider(store::Store &store,
                                                       const ModelProviderRequest &request)
{
    auto provider = resolveCredential(store, request);
    if (!provider)
        return provider;
    const auto requests = requestPolicy(store, request.folder);
    if (!requests)
        return requests.error();
    provider->requests = *requests;
    return provider;
}

namespace {

Result<gateway::ProviderSettings> resolveCredential(store::Store &store,
                                                    const ModelProviderRequest &request)
{
    gateway::ProviderSettings provider;
    if (request.choice == ModelProviderChoice::Demo) {
        provider.kind = gateway::ProviderKind::Demo;
        auto script = request.scriptPath.isEmpty()
                          ? gateway::ScriptedModel::demo(request.scriptVariables)
                          : gateway::ScriptedModel::loadFile(request.scriptPath,
                                                             request.scriptVariables);
        if (!script)
            return script.error();
        provider.script = std::make_shared<const gateway::ScriptedModel>(std::move(*script));
        return provider;
    }
    if (!request.upstreamUrl.isEmpty()) {
        const QUrl url(request.upstreamUrl, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("https") &&
                               url.scheme() != QLatin1String("http")) ||
            url.host().isEmpty())
            return makeError(QStringLiteral("model.bad-url"),
                             QStringLiteral("the model URL '%1' is not an http(s) URL with a host")
                                 .arg(request.upstreamUrl));
        provider.upstream = url;
    } else if (request.api == gateway::ModelApi::OpenAIResponses) {
        provider.upstream = gateway::openAIUpstream();
    }
    std::unique_ptr<secrets::SecretStore> opened;
    if (!request.secrets) {
        auto secrets = secrets::SecretStore::open(store, actors::turns);
        if (!secrets)
            return secrets.error();
        opened = std::move(*secrets);
    }
    secrets::SecretStore &secrets = request.secrets ? *request.secrets : *opened;
    // Auto prefers the key: it is what the API bills plainly.
    const struct
    {
        QString secret;
        gateway::ProviderKind kind;
        bool wanted;
    } candidates[] = {
        {apiKeySecret, gateway::ProviderKind::AnthropicApiKey,
         request.choice != ModelProviderChoice::OAuth},
        {oauthTokenSecret, gateway::ProviderKind::OAuthToken,
         request.choice != ModelProviderChoice::ApiKey},
    };
    const auto stored = secrets.list();
    if (!stored)
        return stored.error();
    if (request.api == gateway::ModelApi::OpenAIResponses) {
        // The Responses API takes an API key; there is no OAuth token to try.
        if (request.choice == ModelProviderChoice::OAuth)
            return makeError(QStringLiteral("model.bad-provider"),
                             QStringLiteral("the OpenAI Responses API takes an API key (%1), not "
                                            "an OAuth token")
                                 .arg(openAIKeySecret));
        const auto key = nearestSecret(secrets, *stored, request.folder, openAIKeySecret);
        if (!key)
            return key.error();
        if (key->isEmpty())
            return noOpenAIKey(request.folder);
        provider.kind = gateway::ProviderKind::OpenAIApiKey;
        provider.credential = *key;
        return provider;
    }
    for (const auto &candidate : candidates) {
        if (!candidate.wanted)
            continue;
        const auto credential = nearestSecret(secrets, *stored, request.folder, candidate.secret);
        if (!credential)
            return credential.error();
        if (!credential->isEmpty()) {
            provider.kind = candidate.kind;
            provider.credential = *credential;
            return provider;
        }
    }
    return noCredential(request.folder);
}

} // namespace

} // namespace arizuko::turns
