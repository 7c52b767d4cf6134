// The gateway's request allowlist, without a network: the requests the
// supported agents send pass; everything that would make the provider
// reach a URL or another resource of the key's account, and anything
// unknown, is refused naming its field; the folder's models and web search
// domains are applied. docs/model-gateway.md, "What a request may ask".

#include "gateway/request_policy.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace arizuko::gateway;

Q_DECLARE_METATYPE(arizuko::gateway::ModelCall)

namespace {

// A Messages request as Claude Code sends one (shape of 2.1.332's), with
// `extra` merged over it.
QByteArray messages(const QJsonObject &extra = {})
{
    QJsonObject request = QJsonDocument::fromJson(R"({
        "model": "claude-sonnet-4-5", "max_tokens": 32000, "stream": true,
        "metadata": {"user_id": "user_x"},
        "system": [{"type": "text", "text": "You are Claude Code.",
                    "cache_control": {"type": "ephemeral"}}],
        "thinking": {"type": "enabled", "budget_tokens": 31999},
        "tools": [{"name": "Bash", "description": "Run", "input_schema": {"type": "object"}},
                  {"type": "custom", "name": "mcp__arizuko__send_message",
                   "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"},
              {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                           "data": "iVBORw0KGgo="}}]},
            {"role": "assistant", "content": [
              {"type": "thinking", "thinking": "hm", "signature": "sig"},
              {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
              "content": [{"type": "text", "text": "ok"}], "is_error": false}]}
        ]})")
                              .object();
    for (auto it = extra.begin(); it != extra.end(); ++it)
        request.insert(it.key(), it.value());
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

// One user message holding `block`.
QByteArray messagesWithBlock(const char *block)
{
    const QJsonObject parsed = QJsonDocument::fromJson(block).object();
    return messages({{QStringLiteral("messages"),
                      QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                             {QStringLiteral("content"), QJsonArray{parsed}}}}}});
}

QByteArray messagesWithTool(const char *tool)
{
    return messages(
        {{QStringLiteral("tools"), QJsonArray{QJsonDocument::fromJson(tool).object()}}});
}

// A Responses request as Codex sends one (shape of 0.171.0's).
QByteArray responses(const QJsonObject &extra = {})
{
    QJsonObject request = QJsonDocument::fromJson(R"({
        "model": "gpt-5.2", "instructions": "You are Codex.", "stream": true, "store": false,
        "tool_choice": "auto", "parallel_tool_calls": false,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "include": ["reasoning.encrypted_content"], "prompt_cache_key": "t1",
        "text": {"verbosity": "low"},
        "tools": [{"type": "function", "name": "exec_command", "description": "Run",
                   "strict": false, "parameters": {"type": "object"}},
                  {"type": "custom", "name": "apply_patch", "description": "Patch",
                   "format": {"type": "grammar", "syntax": "lark", "definition": "start: x"}}],
        "input": [
            {"type": "message", "role": "developer",
             "content": [{"type": "input_text", "text": "<permissions/>"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"},
              {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]},
            {"type": "reasoning", "summary": [], "encrypted_content": "gAAA"},
            {"type": "function_call", "name": "exec_command", "arguments": "{}", "call_id": "c1"},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            {"type": "message", "role": "assistant",
             "content": [{"type": "output_text", "text": "done"}]}
        ]})")
                              .object();
    for (auto it = extra.begin(); it != extra.end(); ++it)
        request.insert(it.key(), it.value());
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

QByteArray responsesWithItem(const char *item)
{
    return responses(
        {{QStringLiteral("input"), QJsonArray{QJsonDocument::fromJson(item).object()}}});
}

QByteArray responsesWithTool(const char *tool)
{
    return responses(
        {{QStringLiteral("tools"), QJsonArray{QJsonDocument::fromJson(tool).object()}}});
}

QJsonObject forwarded(const RequestVerdict &verdict)
{
    return QJsonDocument::fromJson(verdict.body).object();
}

} // namespace

class TestRequestPolicy final : public QObject
{
    Q_OBJECT

private slots:
    void agentRequestsPass_data()
    {
        QTest::addColumn<ModelCall>("call");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("betas");
        QTest::newRow("messages") << ModelCall::Messages << messages()
                                  << QByteArray("claude-code-20250219,"
                                                "interleaved-thinking-2025-05-14");
        QTest::newRow("count_tokens")
            << ModelCall::CountTokens
            << QByteArray(R"({"model":"claude-sonnet-4-5","messages":[{"role":"user",)"
                          R"("content":"hi"}],"tools":[]})")
            << QByteArray();
        QTest::newRow("responses") << ModelCall::Responses << responses() << QByteArray();
        // Whatever the real agents sent, as recorded (tests/engine/gateway/requests).
        for (const QString &name :
             {QStringLiteral("claude-code"), QStringLiteral("pi"), QStringLiteral("codex"),
              QStringLiteral("codex-default-model")}) {
            QFile recorded(QStringLiteral(REQUESTS_DIR "/%1.json").arg(name));
            if (!recorded.open(QIODevice::ReadOnly))
                continue;
            const QJsonArray requests = QJsonDocument::fromJson(recorded.readAll()).array();
            for (qsizetype index = 0; index < requests.size(); ++index) {
                const QJsonObject request = requests.at(index).toObject();
                const QString path = request.value(QStringLiteral("path")).toString();
                const ModelCall call =
                    path.startsWith(QLatin1String("/v1/responses"))        ? ModelCall::Responses
                    : path.startsWith(QLatin1String("/v1/messages/count")) ? ModelCall::CountTokens
                                                                           : ModelCall::Messages;
                const QJsonObject headers = request.value(QStringLiteral("headers")).toObject();
                QByteArray betas =
                    headers.value(QStringLiteral("anthropic-beta"))
                        .toString(headers.value(QStringLiteral("openai-beta")).toString())
                        .toLatin1();
                QTest::addRow("recorded %s %lld", qPrintable(name), index)
                    << call
                    << QJsonDocument(request.value(QStringLiteral("body")).toObject())
                           .toJson(QJsonDocument::Compact)
                    << betas;
            }
        }
    }

    void agentRequestsPass()
    {
        QFETCH(ModelCall, call);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, betas);
        HttpHeaders headers{{"content-type", "application/json"}};
        if (!betas.isEmpty())
            headers.append(
                {call == ModelCall::Responses ? "openai-beta" : "anthropic-beta", betas});
        const RequestVerdict verdict = checkModelRequest(call, headers, body, {});
        QVERIFY2(verdict.allowed(), qPrintable(verdict.message));
        // What goes on is what was checked.
        QJsonObject expected = QJsonDocument::fromJson(body).object();
        if (call == ModelCall::Responses)
            expected.insert(QStringLiteral("store"), false);
        QCOMPARE(forwarded(verdict), expected);
    }

    void reachingOutIsRefused_data()
    {
        QTest::addColumn<ModelCall>("call");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("betas");
        QTest::addColumn<QString>("field");
        const ModelCall m = ModelCall::Messages;
        const ModelCall r = ModelCall::Responses;
        // The Messages API: URL and file sources, account resources,
        // server tools, the MCP connector, their betas.
        QTest::newRow("image url source")
            << m
            << messagesWithBlock(R"({"type":"image","source":{"type":"url",)"
                                 "\"url\":\"https://anywhere.example/?d=secret\"}}")
            << QByteArray() << "messages[0].content[0].source.type: url";
        QTest::newRow("document url source")
            << m
            << messagesWithBlock(R"({"type":"document","source":{"type":"url",)"
                                 "\"url\":\"https://anywhere.example/a.pdf\"}}")
            << QByteArray() << "messages[0].content[0].source.type: url";
        QTest::newRow("image file source")
            << m
            << messagesWithBlock(R"({"type":"image","source":{"type":"file","file_id":"file_1"}})")
            << QByteArray() << "messages[0].content[0].source.type: file";
        QTest::newRow("document file source")
            << m
            << messagesWithBlock(
                   R"({"type":"document","source":{"type":"file","file_id":"file_1"}})")
            << QByteArray() << "messages[0].content[0].source.type: file";
        QTest::newRow("url beside base64")
            << m
            << messagesWithBlock(
                   R"({"type":"image","source":{"type":"base64",)"
                   "\"media_type\":\"image/png\",\"data\":\"x\",\"url\":\"https://a.example\"}}")
            << QByteArray() << "messages[0].content[0].source.url";
        QTest::newRow("image url in a tool result")
            << m
            << messagesWithBlock(R"({"type":"tool_result","tool_use_id":"t","content":[)"
                                 "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https:"
                                 "//a.example\"}}]}")
            << QByteArray() << "messages[0].content[0].content[0].source.type: url";
        QTest::newRow("container_upload")
            << m << messagesWithBlock(R"({"type":"container_upload","file_id":"file_1"})")
            << QByteArray() << "messages[0].content[0].type: container_upload";
        QTest::newRow("mcp_tool_use block")
            << m
            << messagesWithBlock(R"({"type":"mcp_tool_use","id":"m","name":"x","server_name":"s",)"
                                 R"("input":{}})")
            << QByteArray() << "messages[0].content[0].type: mcp_tool_use";
        QTest::newRow("mcp_servers")
            << m
            << messages({{QStringLiteral("mcp_servers"),
                          QJsonArray{QJsonObject{
                              {QStringLiteral("type"), QStringLiteral("url")},
                              {QStringLiteral("url"), QStringLiteral("https://evil.example/mcp")},
                              {QStringLiteral("name"), QStringLiteral("x")}}}}})
            << QByteArray() << "mcp_servers";
        QTest::newRow("container")
            << m << messages({{QStringLiteral("container"), QStringLiteral("container_1")}})
            << QByteArray() << "container";
        QTest::newRow("web_fetch tool")
            << m << messagesWithTool(R"({"type":"web_fetch_20250910","name":"web_fetch"})")
            << QByteArray() << "tools[0].type: web_fetch_20250910";
        QTest::newRow("code_execution tool")
            << m
            << messagesWithTool(R"({"type":"code_execution_20250825","name":"code_execution"})")
            << QByteArray() << "tools[0].type: code_execution_20250825";
        QTest::newRow("web_search tool, folder default")
            << m
            << messagesWithTool(R"({"type":"web_search_20250305","name":"web_search",)"
                                R"("max_uses":8})")
            << QByteArray() << "tools[0].type: web_search_20250305";
        QTest::newRow("mcp_toolset tool")
            << m << messagesWithTool(R"({"type":"mcp_toolset","mcp_server_name":"x"})")
            << QByteArray() << "tools[0].type: mcp_toolset";
        QTest::newRow("web-fetch beta") << m << messages() << QByteArray("web-fetch-2025-09-10")
                                        << "anthropic-beta: web-fetch-2025-09-10";
        QTest::newRow("mcp-client beta")
            << m << messages() << QByteArray("claude-code-20250219, mcp-client-2025-04-04")
            << "anthropic-beta: mcp-client-2025-04-04";
        QTest::newRow("files-api beta") << m << messages() << QByteArray("files-api-2025-04-14")
                                        << "anthropic-beta: files-api-2025-04-14";
        QTest::newRow("unknown top-level key")
            << m << messages({{QStringLiteral("frobnicate"), true}}) << QByteArray()
            << "frobnicate";
        QTest::newRow("mcp_servers on count_tokens")
            << ModelCall::CountTokens
            << QByteArray(R"({"model":"claude-sonnet-4-5","messages":[],"mcp_servers":[]})")
            << QByteArray() << "mcp_servers";
        QTest::newRow("not JSON") << m << QByteArray("{\"model\":") << QByteArray() << "body";
        QTest::newRow("a JSON array") << m << QByteArray("[]") << QByteArray() << "body";

        // The Responses API: URLs and ids in items, hosted tools, state.
        QTest::newRow("input_image url")
            << r
            << responsesWithItem(R"({"role":"user","content":[{"type":"input_image",)"
                                 "\"image_url\":\"https://anywhere.example/?d=secret\"}]}")
            << QByteArray() << "input[0].content[0].image_url";
        QTest::newRow("input_image file_id")
            << r
            << responsesWithItem(R"({"role":"user","content":[{"type":"input_image",)"
                                 R"("file_id":"file-1"}]})")
            << QByteArray() << "input[0].content[0].file_id";
        QTest::newRow("input_file file_url")
            << r
            << responsesWithItem(R"({"role":"user","content":[{"type":"input_file",)"
                                 "\"file_url\":\"https://anywhere.example/a.pdf\"}]}")
            << QByteArray() << "input[0].content[0].file_url";
        QTest::newRow("input_file file_id")
            << r
            << responsesWithItem(R"({"role":"user","content":[{"type":"input_file",)"
                                 R"("file_id":"file-1"}]})")
            << QByteArray() << "input[0].content[0].file_id";
        QTest::newRow("image url in a tool output")
            << r
            << responsesWithItem(
                   R"({"type":"function_call_output","call_id":"c","output":[)"
                   "{\"type\":\"input_image\",\"image_url\":\"http://a.example/x.png\"}]}")
            << QByteArray() << "input[0].output[0].image_url";
        QTest::newRow("item_reference")
            << r << responsesWithItem(R"({"type":"item_reference","id":"msg_1"})") << QByteArray()
            << "input[0].type: item_reference";
        QTest::newRow("mcp tool") << r
                                  << responsesWithTool(
                                         R"({"type":"mcp","server_label":"x",)"
                                         "\"server_url\":\"https://evil.example/mcp\"}")
                                  << QByteArray() << "tools[0].type: mcp";
        // Codex's code mode offers tools in the input: checked the same.
        QTest::newRow("mcp tool in additional_tools")
            << r
            << responsesWithItem(R"({"type":"additional_tools","role":"developer","tools":[)"
                                 R"({"type":"mcp","server_label":"x",)"
                                 "\"server_url\":\"https://evil.example/mcp\"}]}")
            << QByteArray() << "input[0].tools[0].type: mcp";
        QTest::newRow("web_search tool in additional_tools, folder default")
            << r
            << responsesWithItem(R"({"type":"additional_tools","role":"developer","tools":[)"
                                 R"({"type":"namespace","name":"functions","tools":[]},)"
                                 R"({"type":"web_search"}]})")
            << QByteArray() << "input[0].tools[1].type: web_search";
        QTest::newRow("file_search tool")
            << r << responsesWithTool(R"({"type":"file_search","vector_store_ids":["vs_1"]})")
            << QByteArray() << "tools[0].type: file_search";
        QTest::newRow("code_interpreter tool")
            << r << responsesWithTool(R"({"type":"code_interpreter","container":{"type":"auto"}})")
            << QByteArray() << "tools[0].type: code_interpreter";
        QTest::newRow("image_generation tool")
            << r << responsesWithTool(R"({"type":"image_generation"})") << QByteArray()
            << "tools[0].type: image_generation";
        QTest::newRow("computer_use_preview tool")
            << r << responsesWithTool(R"({"type":"computer_use_preview"})") << QByteArray()
            << "tools[0].type: computer_use_preview";
        QTest::newRow("web_search tool, folder default")
            << r << responsesWithTool(R"({"type":"web_search"})") << QByteArray()
            << "tools[0].type: web_search";
        QTest::newRow("web_search_preview tool")
            << r << responsesWithTool(R"({"type":"web_search_preview"})") << QByteArray()
            << "tools[0].type: web_search_preview";
        QTest::newRow("previous_response_id")
            << r << responses({{QStringLiteral("previous_response_id"), QStringLiteral("resp_1")}})
            << QByteArray() << "previous_response_id";
        QTest::newRow("conversation")
            << r << responses({{QStringLiteral("conversation"), QStringLiteral("conv_1")}})
            << QByteArray() << "conversation";
        QTest::newRow("store true")
            << r << responses({{QStringLiteral("store"), true}}) << QByteArray() << "store: true";
        QTest::newRow("background") << r << responses({{QStringLiteral("background"), true}})
                                    << QByteArray() << "background";
        QTest::newRow("prompt") << r
                                << responses({{QStringLiteral("prompt"),
                                               QJsonObject{{QStringLiteral("id"),
                                                            QStringLiteral("pmpt_1")}}}})
                                << QByteArray() << "prompt";
        QTest::newRow("unknown include")
            << r
            << responses({{QStringLiteral("include"),
                           QJsonArray{QStringLiteral("file_search_call.results")}}})
            << QByteArray() << "include: file_search_call.results";
        QTest::newRow("unknown openai-beta")
            << r << responses() << QByteArray("assistants=v2") << "openai-beta: assistants=v2";
    }

    void reachingOutIsRefused()
    {
        QFETCH(ModelCall, call);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, betas);
        QFETCH(QString, field);
        HttpHeaders headers;
        if (!betas.isEmpty())
            headers.append(
                {call == ModelCall::Responses ? "openai-beta" : "anthropic-beta", betas});
        const RequestVerdict verdict = checkModelRequest(call, headers, body, {});
        QVERIFY2(!verdict.allowed(), body.constData());
        QCOMPARE(verdict.field, field);
        QVERIFY2(verdict.message.contains(field), qPrintable(verdict.message));
        QVERIFY(verdict.body.isEmpty());
    }

    void modelIsChecked()
    {
        // Defaults: the agents' own families.
        QVERIFY(checkModelRequest(ModelCall::Messages, {}, messages(), {}).allowed());
        const RequestVerdict opus3 = checkModelRequest(
            ModelCall::Messages, {},
            messages({{QStringLiteral("model"), QStringLiteral("claude-3-opus-20240229")}}), {});
        QCOMPARE(opus3.field, QStringLiteral("model \"claude-3-opus-20240229\""));
        QVERIFY2(opus3.message.contains(QLatin1String("claude-sonnet-4*")),
                 qPrintable(opus3.message));
        const RequestVerdict gpt4 = checkModelRequest(
            ModelCall::Responses, {},
            responses({{QStringLiteral("model"), QStringLiteral("gpt-4.1")}}), {});
        QCOMPARE(gpt4.field, QStringLiteral("model \"gpt-4.1\""));
        const RequestVerdict none = checkModelRequest(
            ModelCall::Messages, {}, QByteArray(R"({"messages":[],"max_tokens":1})"), {});
        QCOMPARE(none.field, QStringLiteral("model"));
        // A folder's own list replaces the defaults.
        RequestPolicy pinned;
        pinned.models = {QStringLiteral("claude-haiku-4-5")};
        QVERIFY(checkModelRequest(
                    ModelCall::Messages, {},
                    messages({{QStringLiteral("model"), QStringLiteral("claude-haiku-4-5")}}),
                    pinned)
                    .allowed());
        QCOMPARE(checkModelRequest(ModelCall::Messages, {}, messages(), pinned).field,
                 QStringLiteral("model \"claude-sonnet-4-5\""));
    }

    void webSearchIsLimitedToTheFolderAllowlist()
    {
        RequestPolicy on;
        on.webSearch = true;
        on.webSearchDomains.domains = {QStringLiteral("example.com"),
                                       QStringLiteral("docs.python.org")};
        const QJsonArray folderDomains{QStringLiteral("example.com"),
                                       QStringLiteral("docs.python.org")};
        const auto messagesSearch = [&](const char *tool, const RequestPolicy &policy) {
            return checkModelRequest(ModelCall::Messages, {}, messagesWithTool(tool), policy);
        };
        const auto responsesSearch = [&](const char *tool, const RequestPolicy &policy) {
            return checkModelRequest(ModelCall::Responses, {}, responsesWithTool(tool), policy);
        };
        const auto firstTool = [](const RequestVerdict &verdict) {
            return forwarded(verdict).value(QStringLiteral("tools")).toArray().first().toObject();
        };
        // Claude Code's WebSearch: no filter; the folder's is set.
        const RequestVerdict set = messagesSearch(
            R"({"type":"web_search_20250305","name":"web_search","max_uses":8})", on);
        QVERIFY2(set.allowed(), qPrintable(set.message));
        QCOMPARE(firstTool(set).value(QStringLiteral("allowed_domains")).toArray(), folderDomains);
        // A narrower filter stands; a wider one is refused.
        const RequestVerdict narrower =
            messagesSearch(R"({"type":"web_search_20250305","name":"web_search",)"
                           R"("allowed_domains":["api.example.com"]})",
                           on);
        QVERIFY2(narrower.allowed(), qPrintable(narrower.message));
        QCOMPARE(firstTool(narrower).value(QStringLiteral("allowed_domains")).toArray(),
                 QJsonArray({QStringLiteral("api.example.com")}));
        const RequestVerdict wider =
            messagesSearch(R"({"type":"web_search_20250305","name":"web_search",)"
                           R"("allowed_domains":["example.com","evil.example"]})",
                           on);
        QCOMPARE(wider.field, QStringLiteral("tools[0].allowed_domains"));
        QVERIFY(wider.message.contains(QLatin1String("evil.example")));
        // "notexample.com" is not a subdomain of example.com.
        const RequestVerdict lookalike =
            messagesSearch(R"({"type":"web_search_20250305","name":"web_search",)"
                           R"("allowed_domains":["notexample.com"]})",
                           on);
        QCOMPARE(lookalike.field, QStringLiteral("tools[0].allowed_domains"));
        const RequestVerdict blocked =
            messagesSearch(R"({"type":"web_search_20250305","name":"web_search",)"
                           R"("blocked_domains":["x.example"]})",
                           on);
        QCOMPARE(blocked.field, QStringLiteral("tools[0].blocked_domains"));
        // The Responses API's web_search: filters.allowed_domains.
        const RequestVerdict responsesSet = responsesSearch(R"({"type":"web_search"})", on);
        QVERIFY2(responsesSet.allowed(), qPrintable(responsesSet.message));
        QCOMPARE(firstTool(responsesSet)
                     .value(QStringLiteral("filters"))
                     .toObject()
                     .value(QStringLiteral("allowed_domains"))
                     .toArray(),
                 folderDomains);
        const RequestVerdict responsesWider = responsesSearch(
            R"({"type":"web_search","filters":{"allowed_domains":["evil.example"]}})", on);
        QCOMPARE(responsesWider.field, QStringLiteral("tools[0].filters.allowed_domains"));
        // Offered in an additional_tools item (Codex's code mode): the same,
        // and what goes on is the filtered tool.
        const RequestVerdict inInput = checkModelRequest(
            ModelCall::Responses, {},
            responsesWithItem(
                R"({"type":"additional_tools","role":"developer","tools":[{"type":"web_search"}]})"),
            on);
        QVERIFY2(inInput.allowed(), qPrintable(inInput.message));
        QCOMPARE(forwarded(inInput)
                     .value(QStringLiteral("input"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("tools"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("filters"))
                     .toObject()
                     .value(QStringLiteral("allowed_domains"))
                     .toArray(),
                 folderDomains);
        // A folder that allows no domain allows no search.
        RequestPolicy empty;
        empty.webSearch = true;
        const RequestVerdict none = responsesSearch(R"({"type":"web_search"})", empty);
        QCOMPARE(none.field, QStringLiteral("tools[0].filters"));
        // A folder that allows every host leaves the request's filter alone.
        RequestPolicy any;
        any.webSearch = true;
        any.webSearchDomains.any = true;
        const RequestVerdict unfiltered = responsesSearch(R"({"type":"web_search"})", any);
        QVERIFY2(unfiltered.allowed(), qPrintable(unfiltered.message));
        QVERIFY(!firstTool(unfiltered).contains(QStringLiteral("filters")));
        // Earlier searches in the conversation pass only with search on.
        const QByteArray history = messagesWithBlock(
            R"({"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]})");
        const RequestVerdict historyOn = checkModelRequest(ModelCall::Messages, {}, history, on);
        QVERIFY2(historyOn.allowed(), qPrintable(historyOn.message));
        const RequestVerdict historyOff = checkModelRequest(ModelCall::Messages, {}, history, {});
        QCOMPARE(historyOff.field,
                 QStringLiteral("messages[0].content[0].type: web_search_tool_result"));
    }

    void claudeCodesWebSearchIsRefusedByDefault()
    {
        // Claude Code's WebSearch tool asks the provider's server-side
        // search, as recorded from 2.1.332.
        QFile recorded(QStringLiteral(REQUESTS_DIR "/claude-code-web-search.json"));
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        const QJsonArray requests = QJsonDocument::fromJson(recorded.readAll()).array();
        QVERIFY(!requests.isEmpty());
        for (const QJsonValue &value : requests) {
            const QJsonObject request = value.toObject();
            const QByteArray body = QJsonDocument(request.value(QStringLiteral("body")).toObject())
                                        .toJson(QJsonDocument::Compact);
            const HttpHeaders headers{
                {"anthropic-beta", request.value(QStringLiteral("headers"))
                                       .toObject()
                                       .value(QStringLiteral("anthropic-beta"))
                                       .toString()
                                       .toLatin1()}};
            const RequestVerdict refused =
                checkModelRequest(ModelCall::Messages, headers, body, {});
            QCOMPARE(refused.field, QStringLiteral("tools[0].type: web_search_20250305"));
            RequestPolicy on;
            on.webSearch = true;
            on.webSearchDomains.domains = {QStringLiteral("example.com")};
            const RequestVerdict allowed =
                checkModelRequest(ModelCall::Messages, headers, body, on);
            QVERIFY2(allowed.allowed(), qPrintable(allowed.message));
            const QJsonArray domains = forwarded(allowed)
                                           .value(QStringLiteral("tools"))
                                           .toArray()
                                           .first()
                                           .toObject()
                                           .value(QStringLiteral("allowed_domains"))
                                           .toArray();
            QCOMPARE(domains, QJsonArray({QStringLiteral("example.com")}));
        }
    }

    void aNamespaceHoldsFunctionToolsOnly()
    {
        const RequestVerdict functions = checkModelRequest(
            ModelCall::Responses, {},
            responsesWithTool(R"({"type":"namespace","name":"n","description":"d",)"
                              R"("tools":[{"type":"function","name":"f","parameters":{}}]})"),
            {});
        QVERIFY2(functions.allowed(), qPrintable(functions.message));
        const RequestVerdict hosted = checkModelRequest(
            ModelCall::Responses, {},
            responsesWithTool(R"({"type":"namespace","name":"n","tools":[{"type":"mcp",)"
                              "\"server_label\":\"x\",\"server_url\":\"https://e.example\"}]}"),
            {});
        QCOMPARE(hosted.field, QStringLiteral("tools[0].tools[0].type: mcp"));
    }

    void storeIsAlwaysFalse()
    {
        QJsonObject request = QJsonDocument::fromJson(responses()).object();
        request.remove(QStringLiteral("store"));
        const RequestVerdict verdict = checkModelRequest(
            ModelCall::Responses, {}, QJsonDocument(request).toJson(QJsonDocument::Compact), {});
        QVERIFY2(verdict.allowed(), qPrintable(verdict.message));
        QCOMPARE(forwarded(verdict).value(QStringLiteral("store")), QJsonValue(false));
    }

    void duplicateKeysReachTheUpstreamAsChecked()
    {
        // Whichever of two "model" keys a parser takes, the upstream gets
        // the one checked, alone.
        const QByteArray body = R"({"model":"claude-3-opus-20240229","max_tokens":1,"messages":[],)"
                                R"("model":"claude-sonnet-4-5"})";
        const QString parsed =
            QJsonDocument::fromJson(body).object().value(QStringLiteral("model")).toString();
        const RequestVerdict verdict = checkModelRequest(ModelCall::Messages, {}, body, {});
        QCOMPARE(verdict.allowed(), parsed == QLatin1String("claude-sonnet-4-5"));
        if (verdict.allowed()) {
            QCOMPARE(verdict.body.count("\"model\""), 1);
            QVERIFY(verdict.body.contains("\"claude-sonnet-4-5\""));
        }
    }
};

QTEST_GUILESS_MAIN(TestRequestPolicy)
#include "test_request_policy.moc"
