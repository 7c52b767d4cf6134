-- Schema 4: observe_group. A topic that observes a folder gets that
-- folder's new messages as context at the start of its next turn;
-- seen_message is the newest message already handed over.
CREATE TABLE observations (
    observer_folder TEXT NOT NULL,
    observer_topic  TEXT NOT NULL,
    source_folder   TEXT NOT NULL REFERENCES groups(folder) ON DELETE CASCADE,
    seen_message    INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (observer_folder, observer_topic, source_folder),
    FOREIGN KEY (observer_folder, observer_topic) REFERENCES sessions(group_folder, topic)
        ON DELETE CASCADE
);
