-- Schema 2: agent turns and their events. Timestamps as in schema 1.

-- One row per turn. A turn moves queued -> preparing -> booting -> running
-- -> finishing and ends done, failed, cancelled or interrupted; each phase's
-- start is kept, so the phase breakdown can be read back at any time.
CREATE TABLE turns (
    id                  TEXT PRIMARY KEY,
    -- az-<turn8>: the name of the turn's libvirt domain, network and bridge
    -- and of its proxy process, so a reaper can find them after a crash.
    name                TEXT NOT NULL UNIQUE,
    group_folder        TEXT NOT NULL,
    topic               TEXT NOT NULL,
    agent               TEXT NOT NULL,
    prompt              TEXT NOT NULL,
    state               TEXT NOT NULL CHECK (state IN ('queued', 'preparing', 'booting',
                            'running', 'finishing', 'done', 'failed', 'cancelled', 'interrupted')),
    queued_at           TEXT NOT NULL,
    preparing_at        TEXT,
    booting_at          TEXT,
    running_at          TEXT,
    finishing_at        TEXT,
    ended_at            TEXT,
    deadline_at         TEXT,
    cancel_requested_at TEXT,
    exit_code           INTEGER,
    error_code          TEXT,
    error               TEXT,
    accelerator         TEXT,
    subnet              TEXT,
    vm_name             TEXT,
    network_name        TEXT,
    proxy_pid           INTEGER,
    proxy_address       TEXT,
    cost_usd            REAL,
    usage               TEXT,
    -- The engine process that owns the turn while it is live (pid and its
    -- start time, so a reused pid is not mistaken for the owner).
    engine_pid          INTEGER,
    engine_started      TEXT
);
CREATE INDEX turns_state ON turns(state);
CREATE INDEX turns_topic ON turns(group_folder, topic);

-- Everything a turn reported, in arrival order: the guest's events, logs,
-- status and exit, the proxy's network decisions, the engine's notes.
CREATE TABLE turn_events (
    turn TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    seq  INTEGER NOT NULL,
    kind TEXT NOT NULL,
    json TEXT NOT NULL,
    at   TEXT NOT NULL,
    PRIMARY KEY (turn, seq)
);
