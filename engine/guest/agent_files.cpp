#include "agent_files.h"

#include "boot.h"
#include "system_error.h"

#include <cerrno>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace arizuko::guest {
namespace {

// Every directory on the way to `path`, outermost first.
std::vector<std::string> directoriesTo(const std::string &path)
{
    std::vector<std::string> directories;
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1))
        directories.push_back(path.substr(0, slash));
    return directories;
}

// The parents of `file`: the existing ones stay as they are, the new ones
// belong to the agent (its scratch state goes beside the config).
void makeParents(const std::string &file, const AgentLaunch &launch)
{
    for (const std::string &directory : directoriesTo(file)) {
        struct stat status
        {
        };
        if (::lstat(directory.c_str(), &status) == 0)
            continue;
        boot::makeDirectory(directory, 0755);
        if (::chown(directory.c_str(), launch.uid, launch.gid) != 0)
            throwErrno("chown " + directory);
    }
}

} // namespace

// The home is the user's share: what is made there is made by the agent's
// uid in a child, never by root, so it cannot be pointed at anything the
// agent could not reach itself.
void makeHomeDirectoriesAsAgent(const AgentLaunch &launch)
{
    if (launch.homeDirectories.empty())
        return;
    const pid_t child = ::fork();
    if (child < 0)
        throwErrno("fork to make the agent's directories");
    if (child == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(launch.gid) != 0 || ::setuid(launch.uid) != 0)
            ::_exit(126);
        for (const std::string &directory : launch.homeDirectories) {
            std::vector<std::string> steps = directoriesTo(directory);
            steps.push_back(directory);
            for (const std::string &step : steps) {
                if (::mkdir(step.c_str(), 0700) != 0 && errno != EEXIST)
                    ::_exit(1);
            }
        }
        ::_exit(0);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR)
            throwErrno("wait for the agent's directories");
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw GuestError("could not make the agent's session directories in the home");
}

void prepareAgentFiles(const AgentLaunch &launch)
{
    for (const AgentFile &file : launch.files) {
        makeParents(file.path, launch);
        boot::writeFile(file.path, file.content, 0644);
    }
    makeHomeDirectoriesAsAgent(launch);
    for (const AgentLink &link : launch.links) {
        makeParents(link.path, launch);
        if (::symlink(link.target.c_str(), link.path.c_str()) != 0 && errno != EEXIST)
            throwErrno("symlink " + link.path);
    }
}

} // namespace arizuko::guest
