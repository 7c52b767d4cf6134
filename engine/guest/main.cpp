// arizuko-guest: PID 1 of a turn VM. It prepares the machine, reads one turn
// spec from the host, runs the agent, streams its output back, reports how
// it ended and powers off. Nothing it does can leave the VM running.

#include "agent_files.h"
#include "agent_launch.h"
#include "boot.h"
#include "json.h"
#include "kernel_cmdline.h"
#include "network.h"
#include "page_cache.h"
#include "power.h"
#include "protocol_writer.h"
#include "supervisor.h"
#include "turn_channel.h"
#include "turn_spec.h"

#include <charconv>
#include <csignal>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace arizuko::guest {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr const char *turnPortName = "org.arizuko.turn";
constexpr const char *homeMountTag = "home";
constexpr const char *imageIdFile = "/etc/arizuko-image";
// Room after the deadline for draining output, the exit report and the ack.
constexpr unsigned watchdogGraceSeconds = 15;
constexpr auto ackWait = 3s;

using Cmdline = std::map<std::string, std::string, std::less<>>;

std::string setting(const Cmdline &cmdline, std::string_view name, std::string fallback)
{
    const auto found = cmdline.find(name);
    return found == cmdline.end() ? std::move(fallback) : found->second;
}

unsigned secondsSetting(const Cmdline &cmdline, std::string_view name, unsigned fallback)
{
    const std::string text = setting(cmdline, name, std::to_string(fallback));
    unsigned seconds = 0;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || seconds == 0)
        throw GuestError(std::string(name) + "=" + text + " is not a number of seconds");
    return seconds;
}

std::optional<Ipv4Interface> networkFrom(const TurnSpec &spec, const Cmdline &cmdline)
{
    if (spec.network)
        return spec.network;
    const std::string address = setting(cmdline, "arizuko.ip", "");
    if (address.empty())
        return std::nullopt;
    try {
        return parseIpv4Interface(address, setting(cmdline, "arizuko.gw", ""));
    } catch (const AddressError &error) {
        throw GuestError(std::string("kernel command line: ") + error.what());
    }
}

bool isAckOf(const std::string &line, std::uint64_t seq)
{
    try {
        const json::Value message = json::parse(line);
        const json::Value *type = message.find("type");
        const json::Value *acked = message.find("seq");
        return type && type->asString() && *type->asString() == "ack" && acked &&
               acked->asNumber() && acked->asNumber()->integer &&
               *acked->asNumber()->integer >= static_cast<std::int64_t>(seq);
    } catch (const json::ParseError &) {
        return false;
    }
}

// The host acknowledges the exit report once it has read everything before
// it; powering off earlier could lose output still queued in QEMU.
void awaitAck(TurnChannel &channel, std::uint64_t exitSeq)
{
    const auto giveUp = Clock::now() + ackWait;
    while (const auto line = channel.readLine(giveUp)) {
        if (isAckOf(*line, exitSeq))
            return;
    }
    boot::consoleLog("no ack from the host; powering off anyway");
}

// The CPU time (ticks) a process has used so far, from /proc/<pid>/stat;
// -1 once it is gone.
long long cpuTicks(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text))
        return -1;
    // Fields after the command name, which may hold spaces: state is the
    // 3rd field, utime the 14th and stime the 15th.
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    long long ticks = 0;
    for (int index = 3; index <= 15 && fields >> field; ++index) {
        if (index >= 14)
            ticks += std::stoll(field);
    }
    return ticks;
}

// An agent started ahead of its spec (docs/guest.md, "prestart"), and what
// it was started with.
struct StartedAgent
{
    TurnSpec start;
    AgentLaunch launch;
    AgentProcess process;
};

class Turn
{
public:
    Turn(TurnChannel &channel, Cmdline cmdline)
        : m_channel(channel)
        , m_cmdline(std::move(cmdline))
    {}

    [[noreturn]] void run()
    {
        ExitReport report;
        try {
            report = prepareAndRun();
        } catch (const std::exception &error) {
            boot::consoleLog(std::string("turn failed: ") + error.what());
            report.reason = ExitReport::Reason::Error;
            report.message = error.what();
            sendQuietly(m_writer.log("guest", {report.message, false}));
        }
        sendQuietly(m_writer.exit(report));
        awaitAck(m_channel, m_writer.lastSeq());
        power::powerOff();
    }

private:
    void sendQuietly(const std::string &line)
    {
        try {
            m_channel.send(line);
        } catch (const GuestError &error) {
            boot::consoleLog(error.what());
        }
    }

    ExitReport prepareAndRun()
    {
        const std::string image = boot::readFile(imageIdFile);
        m_channel.send(m_writer.status({"booted", boot::uptimeMs(), boot::kernelRelease(), image}));

        boot::switchToRuntimeRoot(setting(m_cmdline, "arizuko.root", "/dev/vda"), 10s);
        const std::string runtimeImage = boot::readFile(imageIdFile);
        if (runtimeImage != image)
            throw GuestError("root.img (" + runtimeImage + ") does not belong to this initramfs (" +
                             image + "); rebuild the guest image");
        const GuestLayout layout;

        // A pre-booted spare waits here, possibly for minutes, before any
        // prompt exists: nothing of the folder (its home) is touched before
        // the spec. The agent may be started ahead (`prestart`), in a home
        // of its own that the folder's is mounted over later.
        boot::consoleLog("waiting for the turn spec");
        const unsigned specWait = secondsSetting(m_cmdline, "arizuko.spec_timeout", 120);
        const auto giveUp = Clock::now() + std::chrono::seconds(specWait);
        std::string line = readSpecLine(giveUp, nullptr);
        std::optional<StartedAgent> started;
        if (messageType(line) == "prestart") {
            started = prestart(parsePrestart(line), layout);
            line = readSpecLine(giveUp, &*started);
        }
        const TurnSpec spec = parseTurnSpec(line);
        boot::consoleLog("turn spec received");
        readAheadFor(spec.agent, layout);
        if (started) {
            std::string mismatch = prestartMismatch(started->start, spec);
            if (mismatch.empty() && ::waitpid(started->process.pid(), nullptr, WNOHANG) != 0)
                mismatch = "the agent has exited";
            if (!mismatch.empty()) {
                boot::consoleLog("not using the started agent (" + mismatch +
                                 "); launching one as usual");
                discard(*started, layout);
                started.reset();
            }
        }
        boot::mountHome(homeMountTag, layout.home);
        boot::consoleLog("home mounted");
        const TurnLimits limits{Clock::now() + std::chrono::seconds(spec.timeoutSeconds),
                                spec.timeoutSeconds};
        power::armWatchdog(static_cast<unsigned>(spec.timeoutSeconds) + watchdogGraceSeconds);

        configureNetwork(spec);
        if (!spec.inspectCa.empty()) {
            boot::trustTurnCa(spec.inspectCa, layout.caBundle, layout.turnCa);
            boot::consoleLog("the turn's CA trusted");
        }
        boot::writeAccountFiles(spec.uid, spec.gid, layout.home, layout.loginShell);
        if (spec.skills)
            boot::linkSkills(layout.skillsRoot, layout.home);

        if (started) {
            boot::writeFile(layout.kinds.turnEnvironmentFile, turnEnvironmentScript(spec), 0644);
            // Its session directory, made at its start in the scratch home,
            // again in the folder's.
            makeHomeDirectoriesAsAgent(started->launch);
            boot::consoleLog("prompt to the started agent");
            m_channel.send(m_writer.status({"running", boot::uptimeMs(), {}, {}}));
            return supervise(started->process, m_channel, m_writer, limits,
                             startedPrompt(spec.agent, spec.prompt));
        }
        // No started agent (none asked for, or one that could not serve):
        // the prompt goes in argv, as always.
        TurnSpec launched = spec;
        launched.prestarted = false;
        const AgentLaunch launch = buildAgentLaunch(launched, layout);
        prepareAgentFiles(launch);
        AgentProcess agent = AgentProcess::start(launch);
        page_cache::yieldToAgent();
        m_channel.send(m_writer.status({"running", boot::uptimeMs(), {}, {}}));
        return supervise(agent, m_channel, m_writer, limits);
    }

    // The next line from the host; until it comes, a started agent's CPU
    // time is watched, and `agent-idle` sent once it has stopped growing
    // (its start is done).
    std::string readSpecLine(Clock::time_point giveUp, const StartedAgent *started)
    {
        long long lastTicks = -1;
        int quietSeconds = 0;
        bool idleSent = started == nullptr;
        for (;;) {
            const auto until = idleSent ? giveUp : std::min(giveUp, Clock::now() + 1s);
            if (auto line = m_channel.readLine(until))
                return std::move(*line);
            if (Clock::now() >= giveUp)
                throw GuestError(
                    "no turn spec arrived within " +
                    std::to_string(secondsSetting(m_cmdline, "arizuko.spec_timeout", 120)) + " s");
            if (idleSent)
                continue;
            const long long ticks = cpuTicks(started->process.pid());
            if (ticks < 0) {
                idleSent = true; // it has exited: the spec will find out
                continue;
            }
            // Under 3 ticks (30 ms) a second, twice in a row: its timers only.
            quietSeconds = lastTicks >= 0 && ticks - lastTicks < 3 ? quietSeconds + 1 : 0;
            lastTicks = ticks;
            if (quietSeconds >= 2) {
                idleSent = true;
                boot::consoleLog("the started agent is idle");
                m_channel.send(m_writer.status({"agent-idle", boot::uptimeMs(), {}, {}}));
            }
        }
    }

    // `prestart`: the agent's fixed part, started in a scratch home behind
    // the spare's filter, before any prompt, home or session exists.
    StartedAgent prestart(TurnSpec start, const GuestLayout &layout)
    {
        boot::consoleLog("prestart received");
        boot::mountScratchHome(layout.home, start.uid, start.gid);
        configureNetwork(start);
        boot::writeAccountFiles(start.uid, start.gid, layout.home, layout.loginShell);
        readAheadFor(start.agent, layout);
        AgentLaunch launch = buildAgentLaunch(start, layout);
        prepareAgentFiles(launch);
        AgentProcess process = AgentProcess::start(launch, true);
        page_cache::yieldToAgent();
        boot::consoleLog("agent started ahead of its prompt");
        m_channel.send(m_writer.status({"agent-started", boot::uptimeMs(), {}, {}}));
        return {std::move(start), std::move(launch), std::move(process)};
    }

    // A started agent the spec cannot use goes, with its scratch home, so
    // the turn starts as if there had been none.
    static void discard(StartedAgent &started, const GuestLayout &layout)
    {
        started.process.killGroup();
        ::waitpid(started.process.pid(), nullptr, 0);
        boot::unmount(layout.home);
    }

    // Only once the guest knows its agent (a `prestart`, else the spec)
    // does it read that agent's files ahead: reading another's, or any for
    // a command, took the one vCPU and the disk from the turn's own setup.
    // A spare that waits for its spec without a started agent reads nothing.
    void readAheadFor(AgentKind agent, const GuestLayout &layout)
    {
        if (m_readingAhead == agent)
            return;
        m_readingAhead = agent;
        page_cache::warmInBackground(readAheadPaths(agent, layout));
    }

    void configureNetwork(const TurnSpec &spec)
    {
        const auto settings = networkFrom(spec, m_cmdline);
        if (m_networkUp) {
            if (settings != m_network)
                throw GuestError("the spec's network differs from the one set up at prestart");
            return;
        }
        network::bringUpLoopback();
        network::disableIpv6();
        m_networkUp = true;
        m_network = settings;
        if (settings) {
            const std::string nic = network::configure(*settings);
            boot::consoleLog("network: " + nic + ' ' + formatIpv4(settings->address) + '/' +
                             std::to_string(settings->prefixLength) + " via " +
                             formatIpv4(settings->gateway));
        }
    }

    TurnChannel &m_channel;
    Cmdline m_cmdline;
    ProtocolWriter m_writer;
    bool m_networkUp = false;
    std::optional<Ipv4Interface> m_network;
    std::optional<AgentKind> m_readingAhead;
};

[[noreturn]] void runAsInit()
{
    // SIGCHLD is read from a signalfd while the agent runs; SIGPIPE would
    // otherwise kill PID 1 on a closed pipe.
    sigset_t childSignals;
    ::sigemptyset(&childSignals);
    ::sigaddset(&childSignals, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &childSignals, nullptr);
    ::signal(SIGPIPE, SIG_IGN);

    std::optional<TurnChannel> channel;
    Cmdline cmdline;
    try {
        boot::mountKernelFilesystems();
        cmdline = parseKernelCmdline(boot::readFile("/proc/cmdline"));
        // Until the spec names a deadline, this bounds boot and the wait.
        power::armWatchdog(secondsSetting(cmdline, "arizuko.boot_timeout", 300));
        boot::loadKernelModules("/lib/modules/" + boot::kernelRelease());
        channel.emplace(TurnChannel::open(turnPortName, 10s));
    } catch (const std::exception &error) {
        // No channel to the host yet: the console log is all there is.
        boot::consoleLog(std::string("cannot start: ") + error.what());
        power::powerOff();
    }
    Turn(*channel, std::move(cmdline)).run();
}

} // namespace
} // namespace arizuko::guest

int main()
{
    if (::getpid() != 1) {
        std::cerr << "arizuko-guest is PID 1 of a turn VM; it is not meant to run here\n";
        return 2;
    }
    arizuko::guest::runAsInit();
}
