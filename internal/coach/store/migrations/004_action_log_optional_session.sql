-- dashboard_loaded is logged even before a session starts (issue 13), so
-- action_log.session_id becomes nullable. SQLite cannot drop a NOT NULL
-- constraint in place, so the table is rebuilt the documented way
-- (https://sqlite.org/lang_altertable.html#otheralter), all inside this
-- migration's one transaction: create the new table, copy every row, drop
-- the old table, rename the new one, recreate the indexes of 002.
-- Foreign keys stay on: action_log has no triggers, no view and no table
-- refers to it, so dropping it cascades nothing and the rename rewrites
-- no reference; the copy checks each row's session again (each passed
-- that check when it was inserted) and keeps ON DELETE CASCADE.
CREATE TABLE action_log_new (
    id          TEXT PRIMARY KEY,
    session_id  TEXT REFERENCES sessions (id) ON DELETE CASCADE,
    action_type TEXT NOT NULL,
    data        TEXT CHECK (data IS NULL OR json_valid(data)),
    created_at  TEXT NOT NULL
);
INSERT INTO action_log_new (id, session_id, action_type, data, created_at)
    SELECT id, session_id, action_type, data, created_at FROM action_log;
DROP TABLE action_log;
ALTER TABLE action_log_new RENAME TO action_log;
CREATE INDEX action_log_session_created_id ON action_log (session_id, created_at, id);
CREATE INDEX action_log_session_type_created_id ON action_log (session_id, action_type, created_at, id);
