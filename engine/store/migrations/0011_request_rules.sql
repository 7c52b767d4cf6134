-- Schema 11: a network rule may name HTTP methods and a path pattern (issue 37,
-- docs/egress.md "Inspected hosts"). methods is '*' or upper-case tokens joined
-- by ','; path is a glob starting with '/' ('*' one segment's characters, '**'
-- any segments). Both '' make a host rule, as every rule was before. A host a
-- rule with methods or path names is inspected: its proxy terminates TLS with
-- the turn's own CA and judges each request.
--
-- SQLite cannot change a UNIQUE constraint, so the table is made again with
-- the same ids, and every trigger on it (0001's policy generation, 0003's
-- change generation) is made again with it.
CREATE TABLE network_rules_new (
    id         INTEGER PRIMARY KEY,
    folder     TEXT NOT NULL,
    target     TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('allow', 'deny')),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    methods    TEXT NOT NULL DEFAULT '',
    path       TEXT NOT NULL DEFAULT '',
    -- Both or neither: a request rule names its methods and its path.
    CHECK ((methods = '') = (path = '')),
    UNIQUE (folder, target, kind, methods, path)
);
INSERT INTO network_rules_new (id, folder, target, kind, created_at, created_by)
    SELECT id, folder, target, kind, created_at, created_by FROM network_rules;
DROP TABLE network_rules;
ALTER TABLE network_rules_new RENAME TO network_rules;

CREATE TRIGGER network_rules_bump_i AFTER INSERT ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_bump_u AFTER UPDATE ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_bump_d AFTER DELETE ON network_rules BEGIN UPDATE policy_generation SET value = value + 1; END;
CREATE TRIGGER network_rules_generation_i AFTER INSERT ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
CREATE TRIGGER network_rules_generation_u AFTER UPDATE ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
CREATE TRIGGER network_rules_generation_d AFTER DELETE ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
