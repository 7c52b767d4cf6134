-- Schema 12: a secret may be bound to hosts (issue 37, docs/security-model.md
-- "Credentials as placeholders"). A bound secret reaches a turn's guest only
-- as a placeholder made fresh for the turn; the turn's proxy puts the value
-- in, in requests to the bound hosts alone, where the binding says: a header
-- (`header` with `template`, which holds '{}' exactly once) or HTTP Basic's
-- password (`basic`).
--
-- The binding is the secret's: removed with it, and moved with it when its
-- folder moves (the cascade follows secrets' key). hosts are allowlist
-- targets as stored (policy/host_name.h), joined by ','.
CREATE TABLE secret_bindings (
    scope_kind TEXT NOT NULL,
    scope_id   TEXT NOT NULL,
    key        TEXT NOT NULL,
    hosts      TEXT NOT NULL CHECK (hosts <> ''),
    header     TEXT NOT NULL DEFAULT '',
    template   TEXT NOT NULL DEFAULT '',
    basic      INTEGER NOT NULL DEFAULT 0 CHECK (basic IN (0, 1)),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    -- Either a header template or Basic, never both.
    CHECK ((basic = 1) = (header = '' AND template = '')),
    CHECK ((header = '') = (template = '')),
    PRIMARY KEY (scope_kind, scope_id, key),
    FOREIGN KEY (scope_kind, scope_id, key) REFERENCES secrets (scope_kind, scope_id, key)
        ON DELETE CASCADE ON UPDATE CASCADE
);

-- The secrets editor shows bindings: it follows the secrets' generation.
CREATE TRIGGER secret_bindings_generation_i AFTER INSERT ON secret_bindings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
CREATE TRIGGER secret_bindings_generation_u AFTER UPDATE ON secret_bindings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
CREATE TRIGGER secret_bindings_generation_d AFTER DELETE ON secret_bindings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
