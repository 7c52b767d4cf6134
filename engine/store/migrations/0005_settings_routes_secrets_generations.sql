-- Schema 5: the user's settings (engine/turns/saved_settings.h), one row per
-- key that differs from the default, written in one transaction; and change
-- generations for routes, secrets and settings, so an open editor or
-- settings dialog sees what arizukoctl changed (store::StoreWatcher).
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

INSERT INTO change_generations (subject, value) VALUES
    ('routes', 0), ('secrets', 0), ('settings', 0);

CREATE TRIGGER routes_generation_i AFTER INSERT ON routes BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'routes'; END;
CREATE TRIGGER routes_generation_u AFTER UPDATE ON routes BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'routes'; END;
CREATE TRIGGER routes_generation_d AFTER DELETE ON routes BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'routes'; END;
CREATE TRIGGER secrets_generation_i AFTER INSERT ON secrets BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
CREATE TRIGGER secrets_generation_u AFTER UPDATE ON secrets BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
CREATE TRIGGER secrets_generation_d AFTER DELETE ON secrets BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'secrets'; END;
CREATE TRIGGER settings_generation_i AFTER INSERT ON settings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'settings'; END;
CREATE TRIGGER settings_generation_u AFTER UPDATE ON settings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'settings'; END;
CREATE TRIGGER settings_generation_d AFTER DELETE ON settings BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'settings'; END;
