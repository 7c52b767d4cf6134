-- Schema 8: the egress ledger (docs/egress.md, "Egress ledger"): one row per
-- request a turn's egress proxy, its model gateway or a connector decided.
-- The proxy's decision line inserts the row and its close line completes it
-- (bytes, duration), in the same transaction as the turn's events. Not a
-- foreign key to turns: the ledger is kept for its retention, not its turn's.
CREATE TABLE egress_ledger (
    id          INTEGER PRIMARY KEY,
    time        TEXT NOT NULL,
    turn        TEXT NOT NULL,
    -- The turn event (its seq) the row was made from: a close line finds
    -- its row by it, and a replayed batch cannot insert it twice.
    event_seq   INTEGER NOT NULL,
    folder      TEXT NOT NULL,
    topic       TEXT NOT NULL,
    client      TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL CHECK (source IN ('proxy', 'gateway', 'connector')),
    method      TEXT NOT NULL DEFAULT '',
    host        TEXT NOT NULL DEFAULT '',
    port        INTEGER NOT NULL DEFAULT 0,
    -- The request's path without its query; NULL where it is not seen
    -- (a CONNECT tunnel).
    path        TEXT,
    decision    TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
    reason      TEXT NOT NULL,
    -- The network rule (or the egress grant) that decided, with the folder
    -- it belongs to ('' the base); NULL when no rule did ("not on the list").
    rule_id     INTEGER,
    rule_text   TEXT,
    rule_folder TEXT,
    status      INTEGER,
    bytes_up    INTEGER,
    bytes_down  INTEGER,
    duration_ms INTEGER,
    -- Held while the user was asked (issue 36's approvals): the answer.
    asked       INTEGER NOT NULL DEFAULT 0,
    answer      TEXT,
    UNIQUE (turn, event_seq)
);
-- Paging is newest first by id; each filter has an index ending in id.
CREATE INDEX egress_ledger_folder ON egress_ledger(folder, id);
CREATE INDEX egress_ledger_folder_decision ON egress_ledger(folder, decision, id);
CREATE INDEX egress_ledger_decision ON egress_ledger(decision, id);
CREATE INDEX egress_ledger_time ON egress_ledger(time);

-- How many days a folder's ledger rows are kept (30 without a row).
CREATE TABLE egress_ledger_retention (
    folder TEXT PRIMARY KEY,
    days   INTEGER NOT NULL CHECK (days >= 1 AND days <= 36500)
);
