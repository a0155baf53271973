-- Newest-first reads of the action log order by (created_at, id); with id in
-- the index SQLite walks it backwards and stops after LIMIT rows instead of
-- sorting every row of the session.
DROP INDEX IF EXISTS action_log_session_created;
DROP INDEX IF EXISTS action_log_session_type_created;
CREATE INDEX IF NOT EXISTS action_log_session_created_id ON action_log (session_id, created_at, id);
CREATE INDEX IF NOT EXISTS action_log_session_type_created_id ON action_log (session_id, action_type, created_at, id);
