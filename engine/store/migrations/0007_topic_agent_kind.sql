-- Schema 7: a topic's session belongs to one kind of agent (claude, codex,
-- pi: docs/agents.md). Every topic before this one was Claude Code's. A
-- fork keeps its source's kind; switching kinds starts a new session
-- (folders::Topics::useAgent).
ALTER TABLE sessions ADD COLUMN agent_kind TEXT NOT NULL DEFAULT 'claude';
