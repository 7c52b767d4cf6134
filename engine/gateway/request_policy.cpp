#include "gateway/request_policy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <functional>
#include <initializer_list>

namespace arizuko::gateway {

namespace {

using Keys = std::initializer_list<QLatin1StringView>;

bool among(const QString &value, Keys names)
{
    for (const QLatin1StringView name : names) {
        if (value == name)
            return true;
    }
    return false;
}

// The anthropic-beta values the pinned agents send (docs/model-gateway.md
// records them): Claude Code 2.1.332's, pi 0.73.1's, and the OAuth one the
// gateway adds itself. None switches on a feature that reaches out.
constexpr QLatin1StringView anthropicBetas[] = {
    QLatin1StringView("claude-code-20250219"),
    QLatin1StringView("interleaved-thinking-2025-05-14"),
    QLatin1StringView("context-management-2025-06-27"),
    QLatin1StringView("thinking-token-count-2026-05-13"),
    QLatin1StringView("advanced-tool-use-2025-11-20"),
    QLatin1StringView("thinking-display-updates-2026-08-18"),
    QLatin1StringView("per-turn-control-2026-07-01"),
    QLatin1StringView("mid-conversation-tool-changes-2026-07-01"),
    QLatin1StringView("effort-2025-11-24"),
    QLatin1StringView("fine-grained-tool-streaming-2025-05-14"),
    QLatin1StringView("oauth-2025-04-20"),
};
// Allowed with the folder's provider web search only.
constexpr QLatin1StringView webSearchBeta("web-search-2025-03-05");

// The Messages API's server tool for web search, by its dated type.
bool isMessagesWebSearch(const QString &type)
{
    static const QRegularExpression dated(QStringLiteral("^web_search_[0-9]{8}$"));
    return dated.match(type).hasMatch();
}

bool isResponsesWebSearch(const QString &type)
{
    return type == QLatin1String("web_search") || type == QLatin1String("web_search_2025_08_26");
}

// A domain of a web search filter as the folder's rules hold hosts: lower
// case, no scheme, no wildcard prefix.
QString normalDomain(QString domain)
{
    domain = domain.trimmed().toLower();
    if (domain.startsWith(QLatin1String("*.")))
        domain.remove(0, 2);
    while (domain.endsWith(QLatin1Char('.')))
        domain.chop(1);
    return domain;
}

// A filter entry covers itself and its subdomains, as a network rule does.
bool covered(const QString &domain, const QStringList &allowed)
{
    for (const QString &entry : allowed) {
        if (domain == entry || domain.endsWith(QLatin1Char('.') + entry))
            return true;
    }
    return false;
}

class Checker
{
public:
    Checker(ModelCall call, const RequestPolicy &policy)
        : m_call(call)
        , m_policy(policy)
    {}

    bool refuse(const QString &field, const QString &why)
    {
        if (m_field.isEmpty()) {
            m_field = field;
            m_message = QStringLiteral("the model gateway does not forward %1: %2").arg(field, why);
        }
        return false;
    }

    bool unknownKey(const QString &field)
    {
        return refuse(field, QStringLiteral("not a field the supported agents send"));
    }

    // Every key of `object` is one of `known`.
    bool onlyKeys(const QJsonObject &object, const QString &at, Keys known)
    {
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (!among(it.key(), known))
                return unknownKey(at + QLatin1Char('.') + it.key());
        }
        return true;
    }

    bool betas(const HttpHeaders &headers, QLatin1StringView header)
    {
        for (const HttpHeader &entry : headers) {
            if (entry.first.compare(QByteArray(header.data(), header.size()),
                                    Qt::CaseInsensitive) != 0)
                continue;
            for (const QByteArray &raw : entry.second.split(',')) {
                const QString beta = QString::fromLatin1(raw.trimmed());
                if (beta.isEmpty())
                    continue;
                bool known = header == QLatin1StringView("anthropic-beta") &&
                             (std::find(std::begin(anthropicBetas), std::end(anthropicBetas),
                                        beta) != std::end(anthropicBetas) ||
                              (m_policy.webSearch && beta == webSearchBeta));
                if (!known)
                    return refuse(QStringLiteral("%1: %2").arg(header, beta),
                                  QStringLiteral("not a beta the supported agents send"));
            }
        }
        return true;
    }

    bool model(const QJsonObject &request)
    {
        const QJsonValue value = request.value(QLatin1String("model"));
        if (!value.isString())
            return refuse(QStringLiteral("model"), QStringLiteral("the request names no model"));
        const QStringList patterns =
            m_policy.models.isEmpty() ? defaultModels(m_call) : m_policy.models;
        if (!modelAllowed(value.toString(), patterns))
            return refuse(QStringLiteral("model \"%1\"").arg(value.toString().left(100)),
                          QStringLiteral("the folder allows only %1 (arizukoctl folder "
                                         "gateway --models)")
                              .arg(patterns.join(QStringLiteral(", "))));
        return true;
    }

    // Rewrites a web search tool's domain filter to the folder's
    // allowlist: `filter` is the object holding `allowed_domains`.
    bool domainFilter(QJsonObject &filter, const QString &at, bool blockedToo)
    {
        const DomainFilter &folder = m_policy.webSearchDomains;
        if (folder.any)
            return true;
        if (blockedToo && filter.contains(QLatin1String("blocked_domains")))
            return refuse(at + QStringLiteral(".blocked_domains"),
                          QStringLiteral("the gateway sets allowed_domains to the folder's "
                                         "allowlist, and the API takes only one of the two"));
        QStringList allowed;
        for (const QString &domain : folder.domains)
            allowed << normalDomain(domain);
        const QJsonValue asked = filter.value(QLatin1String("allowed_domains"));
        if (asked.isUndefined() || asked.isNull()) {
            if (allowed.isEmpty())
                return refuse(at, QStringLiteral("the folder's network allowlist holds no domain "
                                                 "for the provider's web search"));
            filter.insert(QStringLiteral("allowed_domains"), QJsonArray::fromStringList(allowed));
            return true;
        }
        if (!asked.isArray())
            return refuse(at + QStringLiteral(".allowed_domains"), QStringLiteral("not a list"));
        for (const QJsonValue &domain : asked.toArray()) {
            if (!domain.isString() || !covered(normalDomain(domain.toString()), allowed))
                return refuse(at + QStringLiteral(".allowed_domains"),
                              QStringLiteral("\"%1\" is not on the folder's network allowlist")
                                  .arg(domain.toString().left(200)));
        }
        return true;
    }

    // ---- the Anthropic Messages API ----

    bool messagesRequest(QJsonObject &request)
    {
        // count_tokens takes a subset of these; the API refuses the rest,
        // and none of them reaches out.
        for (auto it = request.begin(); it != request.end(); ++it) {
            if (!among(it.key(),
                       {QLatin1StringView("model"), QLatin1StringView("messages"),
                        QLatin1StringView("system"), QLatin1StringView("tools"),
                        QLatin1StringView("tool_choice"), QLatin1StringView("thinking"),
                        QLatin1StringView("context_management"), QLatin1StringView("output_config"),
                        QLatin1StringView("output_format"), QLatin1StringView("max_tokens"),
                        QLatin1StringView("metadata"), QLatin1StringView("stop_sequences"),
                        QLatin1StringView("stream"), QLatin1StringView("temperature"),
                        QLatin1StringView("top_k"), QLatin1StringView("top_p")}))
                return unknownKey(it.key());
        }
        if (!model(request))
            return false;
        const QJsonValue system = request.value(QLatin1String("system"));
        if (system.isArray() && !blocks(system.toArray(), QStringLiteral("system"), TextOnly))
            return false;
        if (!request.value(QLatin1String("messages")).isArray())
            return refuse(QStringLiteral("messages"), QStringLiteral("not a list"));
        const QJsonArray messages = request.value(QLatin1String("messages")).toArray();
        for (qsizetype index = 0; index < messages.size(); ++index) {
            const QString at = QStringLiteral("messages[%1]").arg(index);
            if (!messages.at(index).isObject())
                return refuse(at, QStringLiteral("not a message"));
            const QJsonObject message = messages.at(index).toObject();
            // output_config: Claude Code's per-turn control, on a system message.
            if (!onlyKeys(message, at,
                          {QLatin1StringView("role"), QLatin1StringView("content"),
                           QLatin1StringView("output_config")}))
                return false;
            const QJsonValue content = message.value(QLatin1String("content"));
            if (content.isArray() &&
                !blocks(content.toArray(), at + QStringLiteral(".content"), MessageContent))
                return false;
        }
        return eachTool(request, [this](QJsonObject &tool, const QString &at) {
            return messagesTool(tool, at);
        });
    }

    // Checks (and may rewrite) each of the request's tools.
    // The tools of a request, or of `holder` at `where` in it.
    bool eachTool(QJsonObject &holder,
                  const std::function<bool(QJsonObject &, const QString &)> &check,
                  const QString &where = {})
    {
        const QString field =
            where.isEmpty() ? QStringLiteral("tools") : where + QStringLiteral(".tools");
        if (!holder.contains(QLatin1String("tools")))
            return true;
        if (!holder.value(QLatin1String("tools")).isArray())
            return refuse(field, QStringLiteral("not a list"));
        QJsonArray tools = holder.value(QLatin1String("tools")).toArray();
        for (qsizetype index = 0; index < tools.size(); ++index) {
            const QString at = QStringLiteral("%1[%2]").arg(field).arg(index);
            if (!tools.at(index).isObject())
                return refuse(at, QStringLiteral("not a tool"));
            QJsonObject tool = tools.at(index).toObject();
            if (!check(tool, at))
                return false;
            tools.replace(index, tool);
        }
        holder.insert(QStringLiteral("tools"), tools);
        return true;
    }

    bool messagesTool(QJsonObject &tool, const QString &at)
    {
        const QString type = tool.value(QLatin1String("type")).toString();
        if (type.isEmpty() || type == QLatin1String("custom"))
            return onlyKeys(tool, at,
                            {QLatin1StringView("type"), QLatin1StringView("name"),
                             QLatin1StringView("description"), QLatin1StringView("input_schema"),
                             QLatin1StringView("cache_control"), QLatin1StringView("strict"),
                             QLatin1StringView("eager_input_streaming"),
                             QLatin1StringView("defer_loading"),
                             QLatin1StringView("input_examples")});
        if (isMessagesWebSearch(type)) {
            if (!m_policy.webSearch)
                return refuse(QStringLiteral("%1.type: %2").arg(at, type),
                              QStringLiteral("the provider's web search is off for this folder "
                                             "(arizukoctl folder gateway --provider-web-search)"));
            if (!onlyKeys(tool, at,
                          {QLatin1StringView("type"), QLatin1StringView("name"),
                           QLatin1StringView("allowed_domains"),
                           QLatin1StringView("blocked_domains"), QLatin1StringView("max_uses"),
                           QLatin1StringView("user_location"), QLatin1StringView("cache_control")}))
                return false;
            return domainFilter(tool, at, true);
        }
        return refuse(QStringLiteral("%1.type: %2").arg(at, type),
                      QStringLiteral("a tool the provider runs itself (it may reach other hosts "
                                     "or account resources)"));
    }

    enum BlockContext
    {
        TextOnly,       // system
        MessageContent, // a message's content
        ToolResult,     // a tool result's content
        DocumentContent // a document's content source
    };

    bool blocks(const QJsonArray &list, const QString &at, BlockContext context)
    {
        for (qsizetype index = 0; index < list.size(); ++index) {
            const QString here = QStringLiteral("%1[%2]").arg(at).arg(index);
            if (!list.at(index).isObject())
                return refuse(here, QStringLiteral("not a content block"));
            if (!block(list.at(index).toObject(), here, context))
                return false;
        }
        return true;
    }

    bool block(const QJsonObject &block, const QString &at, BlockContext context)
    {
        const QString type = block.value(QLatin1String("type")).toString();
        const QString typed = QStringLiteral("%1.type: %2").arg(at, type);
        const bool inMessage = context == MessageContent;
        if (type == QLatin1String("text"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("text"),
                             QLatin1StringView("cache_control"), QLatin1StringView("citations")});
        if (context == TextOnly)
            return refuse(typed, QStringLiteral("only text blocks are known here"));
        if (type == QLatin1String("image"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("source"),
                             QLatin1StringView("cache_control")}) &&
                   source(block.value(QLatin1String("source")).toObject(), at,
                          {QLatin1StringView("base64")});
        if (context == DocumentContent)
            return refuse(typed, QStringLiteral("only text and image blocks are known here"));
        if (type == QLatin1String("document"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("source"),
                             QLatin1StringView("title"), QLatin1StringView("context"),
                             QLatin1StringView("citations"), QLatin1StringView("cache_control")}) &&
                   source(block.value(QLatin1String("source")).toObject(), at,
                          {QLatin1StringView("base64"), QLatin1StringView("text"),
                           QLatin1StringView("content")});
        // What Claude Code's ToolSearch answers: a tool of the request's
        // own, by name.
        if (context == ToolResult && type == QLatin1String("tool_reference"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("tool_name"),
                             QLatin1StringView("cache_control")});
        if (context == ToolResult)
            return refuse(typed, QStringLiteral("only text, image, document and tool_reference "
                                                "blocks are known in a tool result"));
        if (type == QLatin1String("tool_use"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("name"), QLatin1StringView("input"),
                             QLatin1StringView("cache_control")});
        if (type == QLatin1String("tool_result")) {
            if (!onlyKeys(block, at,
                          {QLatin1StringView("type"), QLatin1StringView("tool_use_id"),
                           QLatin1StringView("content"), QLatin1StringView("is_error"),
                           QLatin1StringView("cache_control")}))
                return false;
            const QJsonValue content = block.value(QLatin1String("content"));
            return !content.isArray() ||
                   blocks(content.toArray(), at + QStringLiteral(".content"), ToolResult);
        }
        if (type == QLatin1String("thinking"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("thinking"),
                             QLatin1StringView("signature"), QLatin1StringView("cache_control")});
        if (type == QLatin1String("redacted_thinking"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("data"),
                             QLatin1StringView("cache_control")});
        // A web search the provider ran earlier in the conversation, which
        // only a folder with the provider's web search could have had.
        if (inMessage && m_policy.webSearch && type == QLatin1String("server_tool_use")) {
            if (block.value(QLatin1String("name")).toString() != QLatin1String("web_search"))
                return refuse(at + QStringLiteral(".name"),
                              QStringLiteral("only the web search server tool is allowed"));
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("name"), QLatin1StringView("input"),
                             QLatin1StringView("cache_control")});
        }
        if (inMessage && m_policy.webSearch && type == QLatin1String("web_search_tool_result"))
            return onlyKeys(block, at,
                            {QLatin1StringView("type"), QLatin1StringView("tool_use_id"),
                             QLatin1StringView("content"), QLatin1StringView("cache_control")});
        return refuse(typed, QStringLiteral("not a content block the supported agents send"));
    }

    // An image or document source: inline data only, never a URL or an id.
    bool source(const QJsonObject &source, const QString &at, Keys types)
    {
        const QString field = at + QStringLiteral(".source");
        const QString type = source.value(QLatin1String("type")).toString();
        if (!among(type, types))
            return refuse(QStringLiteral("%1.type: %2").arg(field, type),
                          QStringLiteral("only inline data is forwarded (a url or file source "
                                         "makes the provider fetch it)"));
        if (!onlyKeys(source, field,
                      {QLatin1StringView("type"), QLatin1StringView("media_type"),
                       QLatin1StringView("data"), QLatin1StringView("content")}))
            return false;
        const QJsonValue content = source.value(QLatin1String("content"));
        return !content.isArray() ||
               blocks(content.toArray(), field + QStringLiteral(".content"), DocumentContent);
    }

    // ---- the OpenAI Responses API ----

    bool responsesRequest(QJsonObject &request)
    {
        for (auto it = request.begin(); it != request.end(); ++it) {
            const QString &key = it.key();
            if (among(key,
                      {QLatin1StringView("previous_response_id"), QLatin1StringView("conversation"),
                       QLatin1StringView("background"), QLatin1StringView("prompt")}))
                return refuse(key, QStringLiteral("it names or keeps state in the key's account"));
            if (!among(key,
                       {QLatin1StringView("model"), QLatin1StringView("instructions"),
                        QLatin1StringView("input"), QLatin1StringView("tools"),
                        QLatin1StringView("tool_choice"), QLatin1StringView("parallel_tool_calls"),
                        QLatin1StringView("reasoning"), QLatin1StringView("store"),
                        QLatin1StringView("stream"), QLatin1StringView("include"),
                        QLatin1StringView("prompt_cache_key"), QLatin1StringView("text"),
                        QLatin1StringView("max_output_tokens"), QLatin1StringView("temperature"),
                        QLatin1StringView("top_p"), QLatin1StringView("client_metadata")}))
                return unknownKey(key);
        }
        if (!model(request))
            return false;
        // A stored response is kept in the account (and the API stores by
        // default): the gateway asks for none.
        if (request.value(QLatin1String("store")).toBool())
            return refuse(QStringLiteral("store: true"),
                          QStringLiteral("it keeps the response in the key's account"));
        request.insert(QStringLiteral("store"), false);
        for (const QJsonValue &include : request.value(QLatin1String("include")).toArray()) {
            if (include.toString() != QLatin1String("reasoning.encrypted_content"))
                return refuse(QStringLiteral("include: %1").arg(include.toString().left(100)),
                              QStringLiteral("not a value the supported agents send"));
        }
        const QJsonValue input = request.value(QLatin1String("input"));
        if (!input.isString() && !input.isArray())
            return refuse(QStringLiteral("input"), QStringLiteral("neither text nor a list"));
        QJsonArray items = input.toArray();
        for (qsizetype index = 0; index < items.size(); ++index) {
            const QString at = QStringLiteral("input[%1]").arg(index);
            if (!items.at(index).isObject())
                return refuse(at, QStringLiteral("not an input item"));
            QJsonObject item = items.at(index).toObject();
            if (!inputItem(item, at))
                return false;
            items.replace(index, item);
        }
        if (input.isArray())
            request.insert(QStringLiteral("input"), items);
        const QJsonValue choice = request.value(QLatin1String("tool_choice"));
        if (choice.isObject() &&
            !among(choice.toObject().value(QLatin1String("type")).toString(),
                   {QLatin1StringView("function"), QLatin1StringView("custom")}))
            return refuse(QStringLiteral("tool_choice.type"),
                          QStringLiteral("only a function or custom tool may be chosen"));
        return responsesTools(request);
    }

    // The tools of a request, or of an input item at `where`.
    bool responsesTools(QJsonObject &holder, const QString &where = {})
    {
        return eachTool(
            holder,
            [this](QJsonObject &tool, const QString &at) { return responsesTool(tool, at); },
            where);
    }

    bool responsesTool(QJsonObject &tool, const QString &at, bool inNamespace = false)
    {
        const QString type = tool.value(QLatin1String("type")).toString();
        // Codex groups some of its own function tools (multi_agent_v1).
        if (type == QLatin1String("namespace") && !inNamespace) {
            if (!onlyKeys(tool, at,
                          {QLatin1StringView("type"), QLatin1StringView("name"),
                           QLatin1StringView("description"), QLatin1StringView("tools")}))
                return false;
            const QJsonArray tools = tool.value(QLatin1String("tools")).toArray();
            for (qsizetype index = 0; index < tools.size(); ++index) {
                QJsonObject inner = tools.at(index).toObject();
                const QString innerAt = QStringLiteral("%1.tools[%2]").arg(at).arg(index);
                const QString innerType = inner.value(QLatin1String("type")).toString();
                if (innerType != QLatin1String("function") && innerType != QLatin1String("custom"))
                    return refuse(QStringLiteral("%1.type: %2").arg(innerAt, innerType),
                                  QStringLiteral("a namespace holds function tools only"));
                if (!responsesTool(inner, innerAt, true))
                    return false;
            }
            return true;
        }
        if (type == QLatin1String("function"))
            return onlyKeys(tool, at,
                            {QLatin1StringView("type"), QLatin1StringView("name"),
                             QLatin1StringView("description"), QLatin1StringView("parameters"),
                             QLatin1StringView("strict")});
        if (type == QLatin1String("custom"))
            return onlyKeys(tool, at,
                            {QLatin1StringView("type"), QLatin1StringView("name"),
                             QLatin1StringView("description"), QLatin1StringView("format")});
        if (type == QLatin1String("local_shell"))
            return onlyKeys(tool, at, {QLatin1StringView("type")});
        if (isResponsesWebSearch(type)) {
            if (!m_policy.webSearch)
                return refuse(QStringLiteral("%1.type: %2").arg(at, type),
                              QStringLiteral("the provider's web search is off for this folder "
                                             "(arizukoctl folder gateway --provider-web-search)"));
            if (!onlyKeys(tool, at,
                          {QLatin1StringView("type"), QLatin1StringView("filters"),
                           QLatin1StringView("search_context_size"),
                           QLatin1StringView("user_location"),
                           QLatin1StringView("external_web_access")}))
                return false;
            QJsonObject filters = tool.value(QLatin1String("filters")).toObject();
            if (!onlyKeys(filters, at + QStringLiteral(".filters"),
                          {QLatin1StringView("allowed_domains")}) ||
                !domainFilter(filters, at + QStringLiteral(".filters"), false))
                return false;
            if (!filters.isEmpty())
                tool.insert(QStringLiteral("filters"), filters);
            return true;
        }
        return refuse(QStringLiteral("%1.type: %2").arg(at, type),
                      QStringLiteral("a tool the provider runs itself (it may reach other hosts "
                                     "or account resources)"));
    }

    bool inputItem(QJsonObject &item, const QString &at)
    {
        const QString type = item.value(QLatin1String("type")).toString();
        const QString typed = QStringLiteral("%1.type: %2").arg(at, type);
        if (type == QLatin1String("message") ||
            (type.isEmpty() && item.contains(QLatin1String("role")))) {
            if (!onlyKeys(item, at,
                          {QLatin1StringView("type"), QLatin1StringView("role"),
                           QLatin1StringView("content"), QLatin1StringView("id"),
                           QLatin1StringView("status"), QLatin1StringView("phase")}))
                return false;
            return parts(item.value(QLatin1String("content")), at + QStringLiteral(".content"));
        }
        // Codex's code mode (its default model's) offers its tools in the
        // conversation; they pass or fail as the request's own would.
        if (type == QLatin1String("additional_tools"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("role"), QLatin1StringView("tools")}) &&
                   responsesTools(item, at);
        if (type == QLatin1String("function_call"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("call_id"), QLatin1StringView("name"),
                             QLatin1StringView("namespace"), QLatin1StringView("arguments"),
                             QLatin1StringView("status")});
        if (type == QLatin1String("custom_tool_call"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("call_id"), QLatin1StringView("name"),
                             QLatin1StringView("input"), QLatin1StringView("status")});
        if (type == QLatin1String("function_call_output") ||
            type == QLatin1String("custom_tool_call_output"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("call_id"), QLatin1StringView("output"),
                             QLatin1StringView("status")}) &&
                   parts(item.value(QLatin1String("output")), at + QStringLiteral(".output"));
        if (type == QLatin1String("reasoning"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("summary"), QLatin1StringView("content"),
                             QLatin1StringView("encrypted_content"), QLatin1StringView("status")});
        if (type == QLatin1String("local_shell_call"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("call_id"), QLatin1StringView("action"),
                             QLatin1StringView("status")});
        if (type == QLatin1String("local_shell_call_output"))
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("call_id"), QLatin1StringView("output"),
                             QLatin1StringView("status")});
        if (type == QLatin1String("web_search_call") && m_policy.webSearch)
            return onlyKeys(item, at,
                            {QLatin1StringView("type"), QLatin1StringView("id"),
                             QLatin1StringView("status"), QLatin1StringView("action")});
        return refuse(typed, QStringLiteral("not an input item the supported agents send (an "
                                            "item_reference names a stored item; others are "
                                            "provider-side calls)"));
    }

    // A message's content or a tool output: text, or a list of parts.
    bool parts(const QJsonValue &value, const QString &at)
    {
        if (value.isString() || value.isUndefined())
            return true;
        if (!value.isArray())
            return refuse(at, QStringLiteral("neither text nor a list of parts"));
        const QJsonArray list = value.toArray();
        for (qsizetype index = 0; index < list.size(); ++index) {
            if (!part(list.at(index).toObject(), QStringLiteral("%1[%2]").arg(at).arg(index)))
                return false;
        }
        return true;
    }

    bool part(const QJsonObject &part, const QString &at)
    {
        const QString type = part.value(QLatin1String("type")).toString();
        if (among(type, {QLatin1StringView("input_text"), QLatin1StringView("output_text"),
                         QLatin1StringView("summary_text"), QLatin1StringView("reasoning_text")}))
            return onlyKeys(part, at,
                            {QLatin1StringView("type"), QLatin1StringView("text"),
                             QLatin1StringView("annotations"), QLatin1StringView("logprobs")});
        if (type == QLatin1String("refusal"))
            return onlyKeys(part, at, {QLatin1StringView("type"), QLatin1StringView("refusal")});
        if (type == QLatin1String("input_image")) {
            if (part.contains(QLatin1String("file_id")))
                return refuse(at + QStringLiteral(".file_id"),
                              QStringLiteral("it names a file of the key's account"));
            if (!onlyKeys(part, at,
                          {QLatin1StringView("type"), QLatin1StringView("image_url"),
                           QLatin1StringView("detail")}))
                return false;
            // Inline data only: an http(s) URL makes the provider fetch it.
            if (!part.value(QLatin1String("image_url"))
                     .toString()
                     .startsWith(QLatin1String("data:"), Qt::CaseInsensitive))
                return refuse(at + QStringLiteral(".image_url"),
                              QStringLiteral("only a data: URL is forwarded (the provider "
                                             "fetches any other)"));
            return true;
        }
        if (type == QLatin1String("input_file")) {
            for (const QLatin1StringView reaching :
                 {QLatin1StringView("file_id"), QLatin1StringView("file_url")}) {
                if (part.contains(reaching))
                    return refuse(at + QLatin1Char('.') + reaching,
                                  QStringLiteral("it makes the provider fetch a file"));
            }
            return onlyKeys(part, at,
                            {QLatin1StringView("type"), QLatin1StringView("filename"),
                             QLatin1StringView("file_data")});
        }
        return refuse(QStringLiteral("%1.type: %2").arg(at, type),
                      QStringLiteral("not a content part the supported agents send"));
    }

    QString m_field;
    QString m_message;

private:
    ModelCall m_call;
    const RequestPolicy &m_policy;
};

} // namespace

QStringList defaultModels(ModelCall call)
{
    // Claude Code 2.1.332's default (claude-opus-5-5) and the current
    // Opus, Sonnet and Haiku it and pi are pointed at (the tests use
    // claude-sonnet-4-5); Codex 0.171.0's default (gpt-6.2-sol) and the
    // GPT-5 family. Older families (Opus 4 and 4.1 at three times the
    // price) and others only by a folder's own list.
    if (call != ModelCall::Responses)
        return {QStringLiteral("claude-opus-5*"),   QStringLiteral("claude-opus-4-5*"),
                QStringLiteral("claude-opus-4-6*"), QStringLiteral("claude-opus-4-7*"),
                QStringLiteral("claude-opus-4-8*"), QStringLiteral("claude-sonnet-5*"),
                QStringLiteral("claude-sonnet-4*"), QStringLiteral("claude-haiku-5*"),
                QStringLiteral("claude-haiku-4*")};
    return {QStringLiteral("gpt-6.2-sol*"), QStringLiteral("gpt-5*")};
}

bool modelAllowed(const QString &model, const QStringList &patterns)
{
    for (const QString &pattern : patterns) {
        if (pattern.endsWith(QLatin1Char('*')) ? model.startsWith(pattern.chopped(1))
                                               : model == pattern)
            return true;
    }
    return false;
}

RequestVerdict checkModelRequest(ModelCall call, const HttpHeaders &headers, const QByteArray &body,
                                 const RequestPolicy &policy)
{
    Checker checker(call, policy);
    RequestVerdict verdict;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        verdict.field = QStringLiteral("body");
        verdict.message = QStringLiteral("the model gateway forwards only a JSON object body");
        return verdict;
    }
    QJsonObject request = document.object();
    const bool messages = call != ModelCall::Responses;
    const bool passed = messages ? checker.betas(headers, QLatin1StringView("anthropic-beta")) &&
                                       checker.messagesRequest(request)
                                 : checker.betas(headers, QLatin1StringView("openai-beta")) &&
                                       checker.responsesRequest(request);
    if (!passed) {
        verdict.field = checker.m_field;
        verdict.message = checker.m_message;
        return verdict;
    }
    verdict.body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    return verdict;
}

} // namespace arizuko::gateway
