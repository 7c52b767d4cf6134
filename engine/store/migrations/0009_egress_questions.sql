-- Schema 9: questions the egress proxy asks while a request to a host on no
-- allow entry waits (a folder whose unlisted hosts are 'ask'; docs/egress.md,
-- "Asking while the request waits"). The engine that runs the turn writes a
-- row per question it shows and forwards the answer to its proxy; any
-- process (the window, arizukoctl network approve|deny) answers by setting
-- answer where it is still NULL, and the engine notices through the
-- 'questions' generation (store::StoreWatcher). Rows of ended turns go with
-- them (ON DELETE CASCADE) and are closed when the engine closes them.
CREATE TABLE egress_questions (
    id          INTEGER PRIMARY KEY,
    turn_id     TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    folder      TEXT NOT NULL,
    host        TEXT NOT NULL,
    port        INTEGER NOT NULL,
    method      TEXT NOT NULL DEFAULT '',
    path        TEXT NOT NULL DEFAULT '',
    asked_at    TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    -- The engine that asked ("pid:starttime"), the only one that can forward.
    engine      TEXT NOT NULL,
    -- NULL while pending; then once, turn, always or deny.
    answer      TEXT CHECK (answer IN ('once', 'turn', 'always', 'deny')),
    -- With deny: user-denied, no-answer or closed (the turn ended first).
    reason      TEXT NOT NULL DEFAULT '',
    answered_by TEXT NOT NULL DEFAULT '',
    answered_at TEXT,
    -- Set when the engine has passed the answer to the proxy.
    forwarded   INTEGER NOT NULL DEFAULT 0 CHECK (forwarded IN (0, 1))
);
CREATE INDEX egress_questions_pending ON egress_questions(answer, id);

INSERT INTO change_generations (subject, value) VALUES ('questions', 0);
CREATE TRIGGER egress_questions_generation_i AFTER INSERT ON egress_questions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'questions'; END;
CREATE TRIGGER egress_questions_generation_u AFTER UPDATE ON egress_questions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'questions'; END;
CREATE TRIGGER egress_questions_generation_d AFTER DELETE ON egress_questions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'questions'; END;
