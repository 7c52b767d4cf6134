-- Schema 6: a folder's home is <data>/homes/<home_id>, named by an id that
-- never changes. No home lies inside another folder's home (which that
-- folder's guest writes), and a folder move renames rows, not directories.
-- docs/security-model.md, "Folder homes". The directories of an older data
-- directory (<data>/groups/<folder>) are moved by store/home_layout.cpp.
ALTER TABLE groups ADD COLUMN home_id TEXT;
UPDATE groups SET home_id = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX groups_home_id ON groups(home_id);

-- Every way a folder is added (folder add, an import) gets its own id.
CREATE TRIGGER groups_new_home_id AFTER INSERT ON groups WHEN NEW.home_id IS NULL BEGIN
    UPDATE groups SET home_id = lower(hex(randomblob(16))) WHERE folder = NEW.folder;
END;
