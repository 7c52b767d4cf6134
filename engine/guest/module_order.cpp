#include "module_order.h"

#include <algorithm>
#include <map>
#include <set>

namespace arizuko::guest {
namespace {

std::vector<std::string> splitWords(std::string_view text)
{
    std::vector<std::string> words;
    std::size_t position = 0;
    while (position < text.size()) {
        while (position < text.size() && (text[position] == ' ' || text[position] == '\t'))
            ++position;
        const std::size_t start = position;
        while (position < text.size() && text[position] != ' ' && text[position] != '\t')
            ++position;
        if (position > start)
            words.emplace_back(text.substr(start, position - start));
    }
    return words;
}

class LoadOrder
{
public:
    explicit LoadOrder(const std::vector<ModuleEntry> &modules)
    {
        for (const ModuleEntry &entry : modules) {
            m_byPath.emplace(entry.path, &entry);
            m_pathByName.emplace(moduleName(entry.path), entry.path);
        }
    }

    void add(const std::string &name)
    {
        const auto found = m_pathByName.find(moduleName(name));
        if (found == m_pathByName.end())
            throw ModuleError("module " + name + " is not in modules.dep");
        visit(found->second);
    }

    std::vector<std::string> take() { return std::move(m_order); }

private:
    void visit(const std::string &path)
    {
        if (m_done.count(path))
            return;
        if (!m_inProgress.insert(path).second)
            throw ModuleError("modules.dep has a dependency cycle through " + path);
        const auto entry = m_byPath.find(path);
        if (entry == m_byPath.end())
            throw ModuleError("a module depends on " + path + ", which modules.dep lacks");
        // depmod lists the nearest dependency first; loading from the far
        // end keeps the order modprobe would use.
        const auto &dependencies = entry->second->dependencies;
        for (auto it = dependencies.rbegin(); it != dependencies.rend(); ++it)
            visit(*it);
        m_inProgress.erase(path);
        m_done.insert(path);
        m_order.push_back(path);
    }

    std::map<std::string, const ModuleEntry *> m_byPath;
    std::map<std::string, std::string> m_pathByName;
    std::set<std::string> m_done;
    std::set<std::string> m_inProgress;
    std::vector<std::string> m_order;
};

} // namespace

std::vector<ModuleEntry> parseModulesDep(std::string_view text)
{
    std::vector<ModuleEntry> modules;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        ++lineNumber;
        const std::size_t newline = text.find('\n');
        const std::string_view line = text.substr(0, newline);
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const std::size_t colon = line.find(':');
        const std::vector<std::string> target = splitWords(line.substr(0, colon));
        if (colon == std::string_view::npos || target.size() != 1)
            throw ModuleError("modules.dep line " + std::to_string(lineNumber) +
                              " is not \"module: dependencies\"");
        modules.push_back({target.front(), splitWords(line.substr(colon + 1))});
    }
    return modules;
}

std::string moduleName(std::string_view path)
{
    const std::size_t slash = path.rfind('/');
    std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
    const std::size_t suffix = name.find(".ko");
    if (suffix != std::string::npos)
        name.erase(suffix);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

std::vector<std::string> moduleLoadOrder(const std::vector<ModuleEntry> &modules,
                                         const std::vector<std::string> &wanted)
{
    LoadOrder order(modules);
    for (const std::string &name : wanted)
        order.add(name);
    return order.take();
}

} // namespace arizuko::guest
