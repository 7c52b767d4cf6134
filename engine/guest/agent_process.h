#pragma once

// The agent as a child process: its own session (so the whole process group
// can be stopped), an unprivileged identity, stdout and stderr on pipes.

#include "agent_launch.h"
#include "system_error.h"
#include "posix/unique_fd.h"

#include <sys/types.h>

namespace arizuko::guest {

class AgentProcess
{
public:
    // SIGCHLD must be blocked in the caller (it is read from a signalfd).
    // stdin is /dev/null, or with `stdinPipe` a pipe whose writing end
    // stdinPipe() keeps (a started agent's prompt goes there later).
    static AgentProcess start(const AgentLaunch &launch, bool stdinPipe = false);

    pid_t pid() const { return m_pid; }
    posix::UniqueFd &stdinPipe() { return m_stdin; }
    posix::UniqueFd &stdoutPipe() { return m_stdout; }
    posix::UniqueFd &stderrPipe() { return m_stderr; }

    // SIGKILL to the agent and everything it started in its session.
    void killGroup() const;

private:
    AgentProcess(pid_t pid, posix::UniqueFd in, posix::UniqueFd out, posix::UniqueFd err);

    pid_t m_pid;
    posix::UniqueFd m_stdin;
    posix::UniqueFd m_stdout;
    posix::UniqueFd m_stderr;
};

} // namespace arizuko::guest
