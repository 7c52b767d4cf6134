#include "agent/start_configuration.h"

#include "agent/agent_profile.h"

namespace arizuko::agent {
namespace {

// Which of `names` the home's directory `relative` holds, as paths
// relative to the home; `relative` itself when it cannot be listed.
QStringList presentIn(const HomeDirectory &home, const QString &relative, const QStringList &names)
{
    const auto entries = home.entries(relative);
    if (!entries)
        return {relative.isEmpty() ? QStringLiteral(".") : relative};
    const QString prefix = relative.isEmpty() ? QString() : relative + QLatin1Char('/');
    QStringList present;
    for (const QString &name : names) {
        if (entries->has_value() && (*entries)->contains(name))
            present << prefix + name;
    }
    return present;
}

// Everything in the home's directory `relative` but `kept`, as paths
// relative to the home; `relative` itself when it cannot be listed.
QStringList allBut(const HomeDirectory &home, const QString &relative, const QString &kept)
{
    const auto entries = home.entries(relative);
    if (!entries)
        return {relative};
    QStringList present;
    if (entries->has_value()) {
        for (const QString &name : **entries) {
            if (name != kept)
                present << relative + QLatin1Char('/') + name;
        }
    }
    return present;
}

} // namespace

QStringList claudeStartConfiguration(const HomeDirectory &home)
{
    return presentIn(home, QStringLiteral(".claude"),
                     {QStringLiteral("settings.json"), QStringLiteral("settings.local.json"),
                      QStringLiteral("skills"), QStringLiteral("agents"),
                      QStringLiteral("commands"), QStringLiteral("output-styles"),
                      QStringLiteral("plugins")});
}

QStringList piStartConfiguration(const HomeDirectory &home)
{
    const QStringList present = presentIn(home, QString(),
                                          {QStringLiteral("AGENTS.md"), QStringLiteral("AGENTS.MD"),
                                           QStringLiteral("CLAUDE.md"), QStringLiteral("CLAUDE.MD"),
                                           QStringLiteral(".agents")});
    // Everything in .pi is the project's configuration to pi, but for
    // .pi/agent, where turns keep pi's sessions (--session-dir).
    return present + allBut(home, QStringLiteral(".pi"), QStringLiteral("agent"));
}

QStringList codexStartConfiguration(const HomeDirectory &home)
{
    return allBut(home, QStringLiteral(".codex"), QStringLiteral("sessions"));
}

QStringList startConfiguration(const QString &kind, const HomeDirectory &home)
{
    const AgentProfile *profile = agentProfile(kind);
    return profile ? profile->startConfiguration(home) : QStringList();
}

} // namespace arizuko::agent
