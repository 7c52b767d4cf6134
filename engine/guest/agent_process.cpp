#include "agent_process.h"
#include "posix/unique_fd.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace arizuko::guest {
namespace {

std::vector<char *> pointersTo(const std::vector<std::string> &strings)
{
    std::vector<char *> pointers;
    for (const std::string &text : strings)
        pointers.push_back(const_cast<char *>(text.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void failInChild(const char *step)
{
    const char *reason = std::strerror(errno);
    const auto say = [](const char *text) {
        [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    };
    say("arizuko-guest: cannot start the agent: ");
    say(step);
    say(": ");
    say(reason);
    say("\n");
    ::_exit(127);
}

[[noreturn]] void becomeAgent(const AgentLaunch &launch, char *const *argv, char *const *envp,
                              int in, int out, int err)
{
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (const int handled : {SIGALRM, SIGPIPE, SIGCHLD})
        ::signal(handled, SIG_DFL);
    ::setsid();
    const int input = in >= 0 ? in : ::open("/dev/null", O_RDONLY);
    if (input < 0 || ::dup2(input, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
        ::dup2(err, STDERR_FILENO) < 0)
        ::_exit(127);
    if (::chdir(launch.workingDirectory.c_str()) != 0)
        failInChild("chdir to the home");
    if (::setgroups(0, nullptr) != 0 || ::setgid(launch.gid) != 0 || ::setuid(launch.uid) != 0)
        failInChild("drop privileges");
    // An agent the host asked to run as root keeps root; any other must not
    // be able to get it back.
    if (launch.uid != 0 && ::setuid(0) == 0)
        failInChild("privileges were not dropped");
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    ::execve(argv[0], argv, envp);
    failInChild(argv[0]);
}

} // namespace

AgentProcess::AgentProcess(pid_t pid, posix::UniqueFd in, posix::UniqueFd out, posix::UniqueFd err)
    : m_pid(pid)
    , m_stdin(std::move(in))
    , m_stdout(std::move(out))
    , m_stderr(std::move(err))
{}

AgentProcess AgentProcess::start(const AgentLaunch &launch, bool stdinPipe)
{
    posix::UniqueFd inRead;
    posix::UniqueFd inWrite;
    if (stdinPipe) {
        int inPipe[2];
        if (::pipe2(inPipe, O_CLOEXEC) != 0)
            throwErrno("pipe for the agent's stdin");
        inRead.reset(inPipe[0]);
        inWrite.reset(inPipe[1]);
    }
    int outPipe[2];
    int errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
        throwErrno("pipe for the agent's stdout");
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        throwErrno("pipe for the agent's stderr");
    }
    posix::UniqueFd outRead(outPipe[0]);
    posix::UniqueFd errRead(errPipe[0]);
    const posix::UniqueFd outWrite(outPipe[1]);
    const posix::UniqueFd errWrite(errPipe[1]);

    const std::vector<char *> argv = pointersTo(launch.argv);
    const std::vector<char *> envp = pointersTo(launch.environment);
    const pid_t pid = ::fork();
    if (pid < 0)
        throwErrno("fork the agent");
    if (pid == 0)
        becomeAgent(launch, argv.data(), envp.data(), inRead ? inRead.get() : -1, outWrite.get(),
                    errWrite.get());
    return AgentProcess(pid, std::move(inWrite), std::move(outRead), std::move(errRead));
}

void AgentProcess::killGroup() const
{
    ::kill(-m_pid, SIGKILL);
    // Until the child has called setsid() its group does not exist yet.
    ::kill(m_pid, SIGKILL);
}

} // namespace arizuko::guest
