#pragma once

// What the engine does differently for each kind of agent that keeps a
// conversation (Claude Code, Codex, pi), gathered per kind
// (claude_profile.cpp, codex_profile.cpp, pi_profile.cpp): its names, where
// its session file is and how a fork copies it, what of the home it reads
// only at its start (so an agent started ahead cannot serve a home that
// holds it), and how it reaches the model. A new kind is a new file here
// and a line in agent_profile.cpp; the guest's side is
// engine/guest/agent_profile.h, and a turn's (its session's reading of the
// agent's output) a line in engine/turns/agent_kinds.cpp. The command agent
// keeps no conversation, talks to no model and has no profile.

#include "agent/home_directory.h"
#include "core/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <span>

namespace arizuko::agent {

struct AgentProfile
{
    QLatin1StringView name;  // "claude": the turn spec's, the store's and a topic's name
    QLatin1StringView title; // "Claude Code", as a sentence names it
    // The file of `sessionId`, relative to the home, or nullopt while the
    // agent has written none.
    Result<std::optional<QString>> (*sessionFile)(const HomeDirectory &home,
                                                  const QString &sessionId);
    // The conversation of `fromId` copied for `toId` (a topic fork); false
    // when there is none. A source over `maxBytes` is an error.
    Result<bool> (*forkSession)(const HomeDirectory &home, const QString &fromId,
                                const QString &toId, qint64 maxBytes);
    // What of the home it reads only at its start (start_configuration.h).
    QStringList (*startConfiguration)(const HomeDirectory &home);
    // Speaks the OpenAI Responses API to the gateway (else Anthropic Messages).
    bool openAiResponses;
    // Loads no skills itself: the folder's go into its prompt as an index.
    bool skillsIndexInPrompt;
    // Reaches the folder's host tools (its grants) over MCP.
    bool hostTools;
};

extern const AgentProfile claudeProfile;
extern const AgentProfile codexProfile;
extern const AgentProfile piProfile;

// The profile of the kind named `name`; null for one that keeps no
// conversation ("command") or is unknown.
const AgentProfile *agentProfile(const QString &name);

// Every kind that keeps a conversation, in the order a choice offers them.
std::span<const AgentProfile *const> agentProfiles();
// "claude", "codex", "pi".
QStringList conversationAgentNames();

// The kind a turn runs when none is named: the composer's and arizukoctl
// run's default, what a spare starts ahead for a folder without turns, and
// a new topic's before its first turn (the store's default, migration
// 0007).
const AgentProfile &defaultAgentProfile();

} // namespace arizuko::agent
