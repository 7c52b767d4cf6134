#include "supervisor.h"

#include "boot.h"
#include "json.h"
#include "posix/unique_fd.h"
#include "turn_spec.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

namespace arizuko::guest {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::size_t maxPieceBytes = 1 << 20;

enum class Stop
{
    None,
    Timeout,
    Cancelled,
};

struct OutputStream
{
    posix::UniqueFd *fd;
    LineFramer framer;
    bool isStdout;
};

bool isCancel(const std::string &line)
{
    try {
        const json::Value message = json::parse(line);
        const json::Value *type = message.find("type");
        return type && type->asString() && *type->asString() == "cancel";
    } catch (const json::ParseError &) {
        boot::consoleLog("ignoring a malformed line from the host");
        return false;
    }
}

class Supervision
{
public:
    Supervision(AgentProcess &agent, TurnChannel &channel, ProtocolWriter &writer,
                const TurnLimits &limits, StartedPrompt prompt)
        : m_agent(agent)
        , m_channel(channel)
        , m_writer(writer)
        , m_limits(limits)
        , m_streams{{{&agent.stdoutPipe(), LineFramer(maxPieceBytes), true},
                     {&agent.stderrPipe(), LineFramer(maxPieceBytes), false}}}
        , m_input(std::move(prompt.input))
        , m_endsAnswer(std::move(prompt.endsAnswer))
        , m_closeAfterInput(prompt.closeAfterInput)
    {
        // Written as the agent reads, never blocking the loop.
        if (posix::UniqueFd &in = m_agent.stdinPipe())
            ::fcntl(in.get(), F_SETFL, ::fcntl(in.get(), F_GETFL) | O_NONBLOCK);
        sigset_t childSignals;
        ::sigemptyset(&childSignals);
        ::sigaddset(&childSignals, SIGCHLD);
        m_childSignals.reset(::signalfd(-1, &childSignals, SFD_CLOEXEC | SFD_NONBLOCK));
        if (!m_childSignals)
            throwErrno("signalfd for SIGCHLD");
    }

    ExitReport run()
    {
        const auto started = Clock::now();
        // A child that exited before the signalfd existed left SIGCHLD pending,
        // which the signalfd reports; reaping here as well costs nothing.
        reapChildren();
        while (!finished()) {
            std::vector<pollfd> entries;
            for (const OutputStream &stream : m_streams) {
                if (*stream.fd)
                    entries.push_back({stream.fd->get(), POLLIN, 0});
            }
            entries.push_back({m_childSignals.get(), POLLIN, 0});
            posix::UniqueFd &in = m_agent.stdinPipe();
            if (in && !m_input.empty())
                entries.push_back({in.get(), POLLOUT, 0});
            const bool watchHost = m_stop == Stop::None && Clock::now() >= m_hostQuietUntil;
            if (watchHost)
                entries.push_back({m_channel.fd(), POLLIN, 0});

            if (::poll(entries.data(), entries.size(), pollTimeoutMs()) < 0 && errno != EINTR)
                throwErrno("poll the agent's output");
            for (const pollfd &entry : entries) {
                if (!entry.revents)
                    continue;
                if (entry.fd == m_childSignals.get())
                    reapChildren();
                else if (entry.fd == m_channel.fd())
                    readHost();
                else if (in && entry.fd == in.get())
                    writeInput();
                else
                    readOutput(entry.fd);
            }
            if (m_stop == Stop::None && !m_agentStatus && Clock::now() >= m_limits.deadline)
                stop(Stop::Timeout);
        }
        flushAndClose();
        if (!m_agentStatus)
            waitForAgent();

        ExitReport report;
        report.durationMs =
            std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
        if (m_stop == Stop::Timeout) {
            report.reason = ExitReport::Reason::Timeout;
            report.message = "the turn's deadline of " + std::to_string(m_limits.timeoutSeconds) +
                             " s passed; the agent was stopped";
        } else if (m_stop == Stop::Cancelled) {
            report.reason = ExitReport::Reason::Cancelled;
            report.message = "cancelled by the host";
        } else if (m_agentStatus && WIFSIGNALED(*m_agentStatus)) {
            report.reason = ExitReport::Reason::Signaled;
            report.signal = WTERMSIG(*m_agentStatus);
        } else {
            report.reason = ExitReport::Reason::Exited;
            report.code = m_agentStatus ? WEXITSTATUS(*m_agentStatus) : 0;
        }
        return report;
    }

private:
    bool outputOpen() const { return *m_streams[0].fd || *m_streams[1].fd; }

    bool finished() const
    {
        if (m_drainUntil && Clock::now() >= *m_drainUntil)
            return true;
        return (m_agentStatus || m_stop != Stop::None) && !outputOpen();
    }

    int pollTimeoutMs() const
    {
        auto until = m_drainUntil ? *m_drainUntil : m_limits.deadline;
        if (m_stop == Stop::None && !m_agentStatus)
            until = std::min(until, m_limits.deadline);
        if (Clock::now() < m_hostQuietUntil)
            until = std::min(until, m_hostQuietUntil);
        const auto wait = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
        return static_cast<int>(std::clamp<long long>(wait + 1, 0, 60000));
    }

    void writeInput()
    {
        posix::UniqueFd &in = m_agent.stdinPipe();
        const ssize_t n = ::write(in.get(), m_input.data(), m_input.size());
        if (n > 0)
            m_input.erase(0, static_cast<std::size_t>(n));
        else if (n < 0 && errno != EINTR && errno != EAGAIN)
            in.reset(); // the agent closed its stdin: it will say why
        if (m_input.empty() && m_closeAfterInput)
            in.reset();
    }

    // A started agent answers one prompt per turn: at the line that ends its
    // answer it gets end of input and exits, as an agent given its prompt in
    // argv does.
    void closeInputAfterAnswer(const LinePiece &piece)
    {
        const bool wholeLine = !piece.continued && !m_stdoutContinues;
        m_stdoutContinues = piece.continued;
        if (m_agent.stdinPipe() && wholeLine && m_endsAnswer && m_endsAnswer(piece.text))
            m_agent.stdinPipe().reset();
    }

    void stop(Stop why)
    {
        m_stop = why;
        m_agent.killGroup();
        m_drainUntil = Clock::now() + m_limits.drainGrace;
    }

    void reapChildren()
    {
        signalfd_siginfo info;
        while (::read(m_childSignals.get(), &info, sizeof info) > 0) {
        }
        int status = 0;
        pid_t pid;
        while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
            if (pid != m_agent.pid())
                continue;
            m_agentStatus = status;
            m_agent.stdinPipe().reset();
            // What the agent left running in its session goes with it.
            m_agent.killGroup();
            if (!m_drainUntil)
                m_drainUntil = Clock::now() + m_limits.drainGrace;
        }
    }

    void waitForAgent()
    {
        int status = 0;
        if (::waitpid(m_agent.pid(), &status, 0) == m_agent.pid())
            m_agentStatus = status;
    }

    void readHost()
    {
        if (!m_channel.pump()) {
            // No host connected: the port reports hang-up until one is.
            m_hostQuietUntil = Clock::now() + milliseconds(100);
            return;
        }
        while (const auto line = m_channel.takeLine()) {
            if (isCancel(*line) && m_stop == Stop::None)
                stop(Stop::Cancelled);
        }
    }

    void send(const OutputStream &stream, const std::vector<LinePiece> &pieces)
    {
        for (const LinePiece &piece : pieces) {
            m_channel.send(stream.isStdout ? m_writer.event(piece) : m_writer.log("agent", piece));
            if (stream.isStdout)
                closeInputAfterAnswer(piece);
        }
    }

    void readOutput(int fd)
    {
        for (OutputStream &stream : m_streams) {
            if (!*stream.fd || stream.fd->get() != fd)
                continue;
            char buffer[65536];
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return;
            if (n <= 0) {
                send(stream, stream.framer.finish());
                stream.fd->reset();
                return;
            }
            send(stream, stream.framer.feed(std::string_view(buffer, static_cast<std::size_t>(n))));
        }
    }

    void flushAndClose()
    {
        for (OutputStream &stream : m_streams) {
            if (*stream.fd) {
                send(stream, stream.framer.finish());
                stream.fd->reset();
            }
        }
    }

    AgentProcess &m_agent;
    TurnChannel &m_channel;
    ProtocolWriter &m_writer;
    const TurnLimits &m_limits;
    std::array<OutputStream, 2> m_streams;
    std::string m_input;            // what the agent's stdin has still to take
    std::function<bool(std::string_view)> m_endsAnswer;
    bool m_closeAfterInput = false;
    bool m_stdoutContinues = false; // the last stdout piece was not a line's end
    posix::UniqueFd m_childSignals;
    std::optional<int> m_agentStatus;
    Stop m_stop = Stop::None;
    std::optional<Clock::time_point> m_drainUntil;
    Clock::time_point m_hostQuietUntil{};
};

} // namespace

ExitReport supervise(AgentProcess &agent, TurnChannel &channel, ProtocolWriter &writer,
                     const TurnLimits &limits, StartedPrompt prompt)
{
    return Supervision(agent, channel, writer, limits, std::move(prompt)).run();
}

} // namespace arizuko::guest
