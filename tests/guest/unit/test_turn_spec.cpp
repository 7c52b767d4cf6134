// The host's turn spec: what the guest accepts and what it refuses, with a
// reason a person can act on.

#include "agent_launch.h"
#include "turn_spec.h"

#include <gtest/gtest.h>
#include <string>

using namespace arizuko::guest;

namespace {

const std::string commandTurn =
    R"({"type":"turn","version":1,"turn_id":"t1","folder":"corp/eng","topic":"main",)"
    R"("agent":"command","command":"uname -a","timeout_seconds":60})";

// `commandTurn` with its closing brace replaced by `members`.
std::string commandTurnWith(const std::string &members)
{
    return commandTurn.substr(0, commandTurn.size() - 1) + "," + members + "}";
}

std::string errorOf(const std::string &line)
{
    try {
        parseTurnSpec(line);
    } catch (const SpecError &error) {
        return error.what();
    }
    return "<accepted>";
}

} // namespace

TEST(TurnSpec, ParsesACommandTurn)
{
    const TurnSpec spec = parseTurnSpec(commandTurn);
    EXPECT_EQ(spec.turnId, "t1");
    EXPECT_EQ(spec.folder, "corp/eng");
    EXPECT_EQ(spec.topic, "main");
    EXPECT_EQ(spec.agent, AgentKind::Command);
    EXPECT_EQ(spec.command, "uname -a");
    EXPECT_EQ(spec.timeoutSeconds, 60);
    EXPECT_EQ(spec.uid, 1000u);
    EXPECT_EQ(spec.gid, 1000u);
    EXPECT_FALSE(spec.network);
}

TEST(TurnSpec, RootOnlyWhenTheHostSaysSoExplicitly)
{
    const TurnSpec root = parseTurnSpec(commandTurnWith(R"("uid":0,"gid":0)"));
    EXPECT_EQ(root.uid, 0u);
    EXPECT_EQ(root.gid, 0u);
    const TurnSpec unset = parseTurnSpec(commandTurnWith(R"("uid":null,"gid":null)"));
    EXPECT_EQ(unset.uid, 1000u) << "an absent or null uid never means root";
    EXPECT_EQ(unset.gid, 1000u);
}

TEST(TurnSpec, EnvironmentFromShellEnvGrants)
{
    const TurnSpec spec =
        parseTurnSpec(commandTurnWith(R"("env":{"GITHUB_TOKEN":"ghp_x","_A1":""})"));
    ASSERT_EQ(spec.environment.size(), 2u);
    EXPECT_EQ(spec.environment[0], (std::pair<std::string, std::string>{"GITHUB_TOKEN", "ghp_x"}));
    EXPECT_EQ(spec.environment[1].first, "_A1");
    EXPECT_TRUE(parseTurnSpec(commandTurn).environment.empty());
}

TEST(TurnSpec, ParsesAClaudeTurnWithEverything)
{
    const TurnSpec spec = parseTurnSpec(
        R"({"type":"turn","version":1,"turn_id":"t2","folder":"a","topic":"b","agent":"claude",)"
        R"("prompt":"fix the bug\nplease","session_id":"0d6f","model":"claude-x",)"
        R"("proxy_url":"http://10.213.0.1:3128","gateway_url":"http://10.213.0.1:8080",)"
        R"("gateway_token":"tok","timeout_seconds":900,"uid":1001,"gid":1002,)"
        R"("network":{"address":"10.213.0.6/30","gateway":"10.213.0.5"},"future_field":[1]})");
    EXPECT_EQ(spec.agent, AgentKind::Claude);
    EXPECT_EQ(spec.prompt, "fix the bug\nplease");
    EXPECT_EQ(spec.sessionId, "0d6f");
    EXPECT_EQ(spec.model, "claude-x");
    EXPECT_EQ(spec.proxyUrl, "http://10.213.0.1:3128");
    EXPECT_EQ(spec.gatewayUrl, "http://10.213.0.1:8080");
    EXPECT_EQ(spec.gatewayToken, "tok");
    EXPECT_EQ(spec.uid, 1001u);
    EXPECT_EQ(spec.gid, 1002u);
    ASSERT_TRUE(spec.network);
    EXPECT_EQ(formatIpv4(spec.network->address), "10.213.0.6");
    EXPECT_EQ(spec.network->prefixLength, 30);
    EXPECT_EQ(formatIpv4(spec.network->gateway), "10.213.0.5");
}

TEST(TurnSpec, ParsesCodexAndPiTurns)
{
    for (const auto &[name, kind] : {std::pair{"codex", AgentKind::Codex}, {"pi", AgentKind::Pi}}) {
        const TurnSpec spec = parseTurnSpec(
            std::string(R"({"type":"turn","version":1,"turn_id":"t","agent":")") + name +
            R"(","prompt":"hi","gateway_url":"http://10.213.0.1:8080","gateway_token":"k",)"
            R"("session_id":"s","session_mode":"resume","timeout_seconds":60})");
        EXPECT_EQ(spec.agent, kind);
        EXPECT_EQ(agentName(spec.agent), name);
        EXPECT_EQ(spec.prompt, "hi");
        EXPECT_EQ(spec.sessionId, "s");
        EXPECT_EQ(spec.sessionMode, SessionMode::Resume);
    }
}

TEST(TurnSpec, SessionModeIsNewOrResume)
{
    EXPECT_EQ(parseTurnSpec(commandTurnWith(R"("session_mode":"new")")).sessionMode,
              SessionMode::New);
    EXPECT_EQ(parseTurnSpec(commandTurnWith(R"("session_mode":"resume")")).sessionMode,
              SessionMode::Resume);
    EXPECT_EQ(parseTurnSpec(commandTurn).sessionMode, SessionMode::Resume)
        << "hosts that send no mode always resumed";
    EXPECT_NE(errorOf(commandTurnWith(R"("session_mode":"fork")")).find("session_mode"),
              std::string::npos);
}

TEST(TurnSpec, NullMeansAbsent)
{
    EXPECT_EQ(parseTurnSpec(commandTurnWith(R"("session_id":null,"network":null)")).sessionId, "");
}

struct BadSpec
{
    std::string line;
    std::string reason; // a fragment of the error message
};

class TurnSpecRejects : public testing::TestWithParam<BadSpec>
{
};

TEST_P(TurnSpecRejects, WithAClearReason)
{
    const std::string error = errorOf(GetParam().line);
    EXPECT_NE(error.find(GetParam().reason), std::string::npos)
        << "error: " << error << "\nline: " << GetParam().line;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, TurnSpecRejects,
    testing::Values(
        BadSpec{"", "not valid JSON"}, BadSpec{"{\"type\":\"turn\"", "not valid JSON"},
        BadSpec{"[1]", "must be a JSON object"}, BadSpec{R"({"type":"cancel"})", "type \"turn\""},
        BadSpec{R"({"type":"turn","turn_id":"x"})", "version is required"},
        BadSpec{R"({"type":"turn","version":2,"turn_id":"x"})", "version 2 is not supported"},
        BadSpec{R"({"type":"turn","version":"1"})", "version must be an integer"},
        BadSpec{R"({"type":"turn","version":1,"agent":"command"})", "turn_id is required"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"","agent":"command"})",
                "turn_id is required"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":7})", "turn_id must be a string"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"gemini"})",
                "agent \"gemini\" is not one of command, claude, codex, pi"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"codex",)"
                R"("timeout_seconds":5,"gateway_url":"http://h","gateway_token":"t"})",
                "prompt is required for the codex agent"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"pi","prompt":"p",)"
                R"("timeout_seconds":5})",
                "gateway_url and gateway_token are required for the pi agent"},
        BadSpec{commandTurnWith(R"("env":{"CODEX_HOME":"x"})"), "env: 'CODEX_HOME'"},
        BadSpec{commandTurnWith(R"("env":{"PI_CODING_AGENT_DIR":"x"})"),
                "env: 'PI_CODING_AGENT_DIR'"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"command","command":"ls"})",
                "timeout_seconds is required"},
        BadSpec{commandTurnWith(R"("turn_id":"again")"), "duplicate member \"turn_id\""},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"command","command":"ls",)"
                R"("timeout_seconds":0})",
                "timeout_seconds must be between 1 and"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"command","command":"ls",)"
                R"("timeout_seconds":1.5})",
                "timeout_seconds must be an integer"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"command",)"
                R"("timeout_seconds":5})",
                "command is required"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"claude",)"
                R"("timeout_seconds":5,"gateway_url":"http://h","gateway_token":"t"})",
                "prompt is required"},
        BadSpec{R"({"type":"turn","version":1,"turn_id":"x","agent":"claude","prompt":"p",)"
                R"("timeout_seconds":5})",
                "gateway_url and gateway_token are required"},
        // A secret never takes the place of what the launcher sets.
        BadSpec{commandTurnWith(R"("env":{"PATH":"/tmp"})"), "env: 'PATH' is not a variable"},
        BadSpec{commandTurnWith(R"("env":{"HTTPS_PROXY":"x"})"), "env: 'HTTPS_PROXY' is not"},
        BadSpec{commandTurnWith(R"("env":{"ANTHROPIC_BASE_URL":"x"})"),
                "env: 'ANTHROPIC_BASE_URL'"},
        BadSpec{commandTurnWith(R"("env":{"ARIZUKO_FOLDER":"x"})"), "env: 'ARIZUKO_FOLDER'"},
        BadSpec{commandTurnWith(R"("env":{"LD_PRELOAD":"x"})"), "env: 'LD_PRELOAD'"},
        BadSpec{commandTurnWith(R"("env":{"A=B":"x"})"), "env: 'A=B' is not"},
        BadSpec{commandTurnWith(R"("env":{"1A":"x"})"), "env: '1A' is not"},
        BadSpec{commandTurnWith(R"("env":{"K":7})"), "env: K must be a string"},
        BadSpec{commandTurnWith(R"("env":{"K":"a\u0000b"})"),
                "env: K must be a string without NUL"},
        BadSpec{commandTurnWith(R"("env":[1])"), "env must be an object"},
        BadSpec{commandTurnWith(R"("uid":-1)"), "uid must be between 0 and 65534"},
        BadSpec{commandTurnWith(R"("uid":65535)"), "uid must be between 0 and 65534"},
        BadSpec{commandTurnWith(R"("uid":"0")"), "uid must be an integer"},
        BadSpec{commandTurnWith(R"("gid":-1)"), "gid must be between 0 and 65534"},
        BadSpec{commandTurnWith(R"("prompt":"a\u0000b")"), "prompt must not contain a NUL"},
        BadSpec{commandTurnWith(R"("network":"10.0.0.2/30")"), "network must be an object"},
        BadSpec{commandTurnWith(R"("network":{"gateway":"10.0.0.1"})"),
                "network.address is required"},
        BadSpec{commandTurnWith(R"("network":{"address":"10.0.0.2","gateway":"10.0.0.1"})"),
                "needs a prefix length"},
        BadSpec{commandTurnWith(R"("network":{"address":"10.0.0.2/30","gateway":"10.0.0.9"})"),
                "is not another host of the subnet"}));

namespace {

const std::string prestart =
    R"({"type":"prestart","version":1,"folder":"corp","agent":"claude","session_id":"s-new",)"
    R"("model":"m1","proxy_url":"http://10.213.0.1:3128","gateway_url":"http://10.213.0.1:3129",)"
    R"("gateway_token":"tok","uid":1001,"gid":1002,)"
    R"("network":{"address":"10.213.0.2/30","gateway":"10.213.0.1"}})";

// The turn spec a host sends to the agent started from `prestart`.
const std::string prestartedTurn =
    R"({"type":"turn","version":1,"turn_id":"t1","folder":"corp","topic":"main",)"
    R"("agent":"claude","prompt":"hi","session_id":"s-new","session_mode":"new","model":"m1",)"
    R"("proxy_url":"http://10.213.0.1:3128","gateway_url":"http://10.213.0.1:3129",)"
    R"("gateway_token":"tok","uid":1001,"gid":1002,"timeout_seconds":60,"prestarted":true,)"
    R"("network":{"address":"10.213.0.2/30","gateway":"10.213.0.1"}})";

std::string replaced(std::string text, const std::string &from, const std::string &to)
{
    text.replace(text.find(from), from.size(), to);
    return text;
}

} // namespace

TEST(Prestart, ParsesTheAgentsFixedPart)
{
    EXPECT_EQ(messageType(prestart), "prestart");
    EXPECT_EQ(messageType(prestartedTurn), "turn");
    EXPECT_EQ(messageType("not json"), "");
    const TurnSpec start = parsePrestart(prestart);
    EXPECT_TRUE(start.prestarted);
    EXPECT_EQ(start.agent, AgentKind::Claude);
    EXPECT_EQ(start.sessionId, "s-new");
    EXPECT_EQ(start.sessionMode, SessionMode::New);
    EXPECT_EQ(start.model, "m1");
    EXPECT_EQ(start.uid, 1001u);
    EXPECT_EQ(start.gid, 1002u);
    EXPECT_TRUE(start.prompt.empty());
    EXPECT_TRUE(start.turnId.empty());
    ASSERT_TRUE(start.network);
}

TEST(Prestart, RefusesWhatCannotBeStartedAhead)
{
    const auto errorOfPrestart = [](const std::string &line) -> std::string {
        try {
            parsePrestart(line);
        } catch (const SpecError &error) {
            return error.what();
        }
        return "<accepted>";
    };
    EXPECT_EQ(errorOfPrestart(replaced(prestart, R"("agent":"claude")", R"("agent":"command")")),
              "a command is not started before its prompt");
    for (const char *agent : {R"("agent":"pi")", R"("agent":"codex")"})
        EXPECT_EQ(errorOfPrestart(replaced(prestart, R"("agent":"claude")", agent)), "<accepted>");
    EXPECT_EQ(errorOfPrestart(replaced(prestart, R"("session_id":"s-new",)", "")),
              "session_id is required: the agent starts a new session");
    EXPECT_EQ(errorOfPrestart(replaced(prestart, R"("gateway_token":"tok",)", "")),
              "gateway_url and gateway_token are required for the claude agent");
    EXPECT_EQ(errorOfPrestart(prestartedTurn), "expected a message of type \"prestart\"");
}

TEST(Prestart, TheSpecMustAskForTheAgentItWasStartedAs)
{
    const TurnSpec start = parsePrestart(prestart);
    EXPECT_EQ(prestartMismatch(start, parseTurnSpec(prestartedTurn)), "");
    const auto mismatch = [&start](const std::string &from, const std::string &to) {
        return prestartMismatch(start, parseTurnSpec(replaced(prestartedTurn, from, to)));
    };
    EXPECT_EQ(mismatch(R"("prestarted":true)", R"("prestarted":false)"),
              "the spec does not ask for the started agent");
    EXPECT_EQ(mismatch(R"("model":"m1")", R"("model":"m2")"), "the model");
    EXPECT_EQ(mismatch(R"("session_mode":"new")", R"("session_mode":"resume")"), "the session");
    EXPECT_EQ(mismatch(R"("session_id":"s-new")", R"("session_id":"s-old")"), "the session");
    EXPECT_EQ(mismatch(R"("gateway_token":"tok")", R"("gateway_token":"other")"), "the gateway");
    EXPECT_EQ(mismatch(R"("uid":1001)", R"("uid":1003)"), "the uid/gid");
    EXPECT_EQ(mismatch(R"("folder":"corp")", R"("folder":"other")"), "the folder");
    EXPECT_EQ(mismatch(R"("proxy_url":"http://10.213.0.1:3128")",
                       R"("proxy_url":"http://10.213.0.1:9999")"),
              "the proxy");
    EXPECT_EQ(mismatch(R"("address":"10.213.0.2/30","gateway":"10.213.0.1")",
                       R"("address":"10.213.0.6/30","gateway":"10.213.0.5")"),
              "the network");
    EXPECT_EQ(mismatch(R"("prestarted":true)", R"("prestarted":true,"skills":true)"), "the skills");
    EXPECT_EQ(mismatch(R"("prestarted":true)", R"("prestarted":true,"env":{"TOKEN":"x"})"),
              "the shell:env secrets");
    EXPECT_EQ(mismatch(R"("agent":"claude","prompt":"hi")",
                       R"("agent":"command","command":"true","prompt":"hi")"),
              "the agent");
}

// Whatever a kind's launch sets itself (its profile's ownVariables, the
// common environment, a started agent's), a shell:env secret may not take its place: a kind
// that sets a variable it does not reserve fails here.
TEST(TurnSpec, NoSecretMayReplaceAVariableAnAgentsLaunchSets)
{
    for (const AgentKind kind : {AgentKind::Claude, AgentKind::Codex, AgentKind::Pi})
        for (const bool prestarted : {false, true}) {
            TurnSpec spec;
            spec.agent = kind;
            spec.prestarted = prestarted; // a started agent's launch sets more
            spec.prompt = "hi";
            spec.proxyUrl = "http://10.213.0.1:3128";
            spec.gatewayUrl = "http://10.213.0.1:8080";
            spec.gatewayToken = "tok";
            spec.skills = true;
            for (const std::string &entry : buildAgentLaunch(spec).environment) {
                const std::string name = entry.substr(0, entry.find('='));
                EXPECT_EQ(errorOf(commandTurnWith(R"("env":{")" + name + R"(":"x"})"))
                              .rfind("env: '" + name + "'", 0),
                          0u)
                    << agentName(kind) << (prestarted ? " (started ahead)" : "") << " sets "
                    << name;
            }
        }
}

TEST(TurnSpec, InspectCaIsOneCertificateAndNeverAKey)
{
    const std::string certificate =
        "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----\\n";
    const TurnSpec spec = parseTurnSpec(commandTurnWith(R"("inspect_ca":")" + certificate + "\""));
    EXPECT_EQ(spec.inspectCa, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    EXPECT_TRUE(parseTurnSpec(commandTurn).inspectCa.empty());
    const std::string withKey =
        certificate + "-----BEGIN PRIVATE KEY-----\\nMIGH\\n-----END PRIVATE KEY-----\\n";
    EXPECT_EQ(errorOf(commandTurnWith(R"("inspect_ca":")" + withKey + "\"")),
              "inspect_ca must be one PEM certificate and nothing else");
    EXPECT_EQ(errorOf(commandTurnWith(R"("inspect_ca":"-----BEGIN PRIVATE KEY-----\nx\n")")),
              "inspect_ca must be one PEM certificate and nothing else");
}

TEST(TurnSpec, ASecretCannotTakeTheCaVariables)
{
    for (const char *name :
         {"NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "GIT_SSL_CAINFO", "CURL_CA_BUNDLE"}) {
        EXPECT_NE(errorOf(commandTurnWith(R"("env":{")" + std::string(name) + R"(":"/x"})")),
                  "<accepted>")
            << name;
    }
}
