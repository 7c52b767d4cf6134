#include "kernel_cmdline.h"

namespace arizuko::guest {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string withoutQuotes(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        if (c != '"')
            out.push_back(c);
    }
    return out;
}

} // namespace

std::map<std::string, std::string, std::less<>> parseKernelCmdline(std::string_view cmdline)
{
    std::map<std::string, std::string, std::less<>> parameters;
    std::size_t position = 0;
    while (position < cmdline.size()) {
        while (position < cmdline.size() && isSpace(cmdline[position]))
            ++position;
        const std::size_t start = position;
        bool quoted = false;
        while (position < cmdline.size() && (quoted || !isSpace(cmdline[position]))) {
            if (cmdline[position] == '"')
                quoted = !quoted;
            ++position;
        }
        const std::string word = withoutQuotes(cmdline.substr(start, position - start));
        if (word.empty())
            continue;
        const std::size_t equals = word.find('=');
        if (equals == std::string::npos)
            parameters[word] = "";
        else
            parameters[word.substr(0, equals)] = word.substr(equals + 1);
    }
    return parameters;
}

} // namespace arizuko::guest
