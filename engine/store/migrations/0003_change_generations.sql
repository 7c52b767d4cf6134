-- Schema 3: a generation per subject that a window shows (folders, topics,
-- network rules, grants, turns), bumped by triggers on every change, so a
-- window learns what another process (arizukoctl) changed by reading five
-- integers (engine/store/store_watcher.h). Turn events are not counted: a
-- running turn writes many, and the window gets those from the engine.
CREATE TABLE change_generations (
    subject TEXT PRIMARY KEY,
    value   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO change_generations (subject, value) VALUES
    ('folders', 0), ('topics', 0), ('rules', 0), ('grants', 0), ('turns', 0);

CREATE TRIGGER groups_generation_i AFTER INSERT ON groups BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'folders'; END;
CREATE TRIGGER groups_generation_u AFTER UPDATE ON groups BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'folders'; END;
CREATE TRIGGER groups_generation_d AFTER DELETE ON groups BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'folders'; END;
CREATE TRIGGER sessions_generation_i AFTER INSERT ON sessions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'topics'; END;
CREATE TRIGGER sessions_generation_u AFTER UPDATE ON sessions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'topics'; END;
CREATE TRIGGER sessions_generation_d AFTER DELETE ON sessions BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'topics'; END;
CREATE TRIGGER network_rules_generation_i AFTER INSERT ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
CREATE TRIGGER network_rules_generation_u AFTER UPDATE ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
CREATE TRIGGER network_rules_generation_d AFTER DELETE ON network_rules BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'rules'; END;
CREATE TRIGGER acl_generation_i AFTER INSERT ON acl BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER acl_generation_u AFTER UPDATE ON acl BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER acl_generation_d AFTER DELETE ON acl BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER acl_membership_generation_i AFTER INSERT ON acl_membership BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER acl_membership_generation_u AFTER UPDATE ON acl_membership BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER acl_membership_generation_d AFTER DELETE ON acl_membership BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'grants'; END;
CREATE TRIGGER turns_generation_i AFTER INSERT ON turns BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'turns'; END;
CREATE TRIGGER turns_generation_u AFTER UPDATE ON turns BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'turns'; END;
CREATE TRIGGER turns_generation_d AFTER DELETE ON turns BEGIN UPDATE change_generations SET value = value + 1 WHERE subject = 'turns'; END;
