-- Arizuko Desktop store, schema 1. Row shapes follow arizuko's, so that
-- export is a projection, not a translation. Timestamps are UTC ISO-8601
-- with milliseconds ("2026-12-01T01:23:45.678Z").

-- Folders. The base folder '' is implicit and has no row.
CREATE TABLE groups (
    folder      TEXT PRIMARY KEY,
    name        TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    config      TEXT NOT NULL DEFAULT '{}'
);

-- Topics: one agent session each.
CREATE TABLE sessions (
    group_folder TEXT NOT NULL REFERENCES groups(folder) ON DELETE CASCADE,
    topic        TEXT NOT NULL,
    session_id   TEXT NOT NULL UNIQUE,
    parent_topic TEXT,
    forked_at    TEXT,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (group_folder, topic)
);

CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    group_folder TEXT NOT NULL,
    topic        TEXT NOT NULL,
    role         TEXT NOT NULL,
    content      TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    FOREIGN KEY (group_folder, topic) REFERENCES sessions(group_folder, topic) ON DELETE CASCADE
);

-- Routes: the lowest seq whose key=glob predicates all match wins.
CREATE TABLE routes (
    id     INTEGER PRIMARY KEY,
    seq    INTEGER NOT NULL,
    match  TEXT NOT NULL,
    target TEXT NOT NULL
);
CREATE INDEX routes_seq ON routes(seq);

-- Grants. effect is 'allow' or 'deny'; params is a JSON object of
-- param-name -> glob; scope is a folder glob (a, a/*, a/**, **).
CREATE TABLE acl (
    id           INTEGER PRIMARY KEY,
    principal    TEXT NOT NULL,
    action       TEXT NOT NULL,
    scope        TEXT NOT NULL,
    effect       TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
    params       TEXT NOT NULL DEFAULT '{}',
    predicate    TEXT NOT NULL DEFAULT '',
    granted_by   TEXT NOT NULL DEFAULT '',
    granted_at   TEXT NOT NULL,
    grant_option INTEGER NOT NULL DEFAULT 0 CHECK (grant_option IN (0, 1))
);
CREATE INDEX acl_principal ON acl(principal);

CREATE TABLE acl_membership (
    child  TEXT NOT NULL,
    parent TEXT NOT NULL,
    PRIMARY KEY (child, parent)
);
CREATE INDEX acl_membership_parent ON acl_membership(parent);

-- Network rules. folder '' is the base that every folder inherits; target
-- is a validated host name (punycode, no leading '*.') or an IP literal.
CREATE TABLE network_rules (
    id         INTEGER PRIMARY KEY,
    folder     TEXT NOT NULL,
    target     TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('allow', 'deny')),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    UNIQUE (folder, target, kind)
);

-- Secrets: value is "v2:" + base64(nonce || ciphertext || tag), never plaintext.
CREATE TABLE secrets (
    scope_kind TEXT NOT NULL,
    scope_id   TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (scope_kind, scope_id, key)
);

-- Append-only record of every grant decision, rule/grant/secret change and
-- turn lifecycle event. detail is JSON and never holds a secret value.
CREATE TABLE audit_log (
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    actor   TEXT NOT NULL,
    kind    TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_kind ON audit_log(kind, id);

-- The seeded floor role: every folder's agent may use the messaging tools,
-- nothing more. grant_option 0: the floor is not re-delegable (every folder
-- is born a member).
INSERT INTO acl (principal, action, scope, effect, granted_by, granted_at) VALUES
  ('role:member', 'mcp:reply',      '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:send',       '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:send_file',  '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:send_voice', '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:post',       '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:forward',    '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:quote',      '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:repost',     '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:like',       '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:dislike',    '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:edit',       '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z'),
  ('role:member', 'mcp:delete',     '**', 'allow', 'system:seed', '1970-01-01T00:00:00.000Z');

-- Every folder is born a member of role:member, whoever inserts it.
CREATE TRIGGER groups_join_role_member AFTER INSERT ON groups BEGIN
    INSERT OR IGNORE INTO acl_membership (child, parent) VALUES (NEW.folder, 'role:member');
END;
-- A removed folder leaves no stale edge that a later folder of the same name would inherit.
CREATE TRIGGER groups_leave_memberships AFTER DELETE ON groups BEGIN
    DELETE FROM acl_membership WHERE child = OLD.folder;
END;

-- Bumped by every change to a policy table, so a cached policy snapshot in
-- any process or connection can check with one read that it is still
-- current (PRAGMA data_version moves on every commit of any table and not
-- for writes on the same connection).
CREATE TABLE policy_generation (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
);
INSERT INTO policy_generation (id, value) VALUES (1, 0);
CREATE TRIGGER acl_bump_i AFTER INSERT ON acl BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER acl_bump_u AFTER UPDATE ON acl BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER acl_bump_d AFTER DELETE ON acl BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER acl_membership_bump_i AFTER INSERT ON acl_membership BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER acl_membership_bump_u AFTER UPDATE ON acl_membership BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER acl_membership_bump_d AFTER DELETE ON acl_membership BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_bump_i AFTER INSERT ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_bump_u AFTER UPDATE ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_bump_d AFTER DELETE ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER routes_bump_i AFTER INSERT ON routes BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER routes_bump_u AFTER UPDATE ON routes BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER routes_bump_d AFTER DELETE ON routes BEGIN UPDATE policy_generation SET value = value + 1; END;
