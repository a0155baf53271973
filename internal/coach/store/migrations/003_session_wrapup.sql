-- The wrap-up (paige_end_session's steps) runs once per session, whichever
-- way the session ends (issue 13). wrapup_status: 'none' while the session
-- is active (or for sessions ended before this migration without a wrap-up:
-- they are not replayed), 'pending' once it ended without one, 'running'
-- while one is claimed, 'done' after it.
ALTER TABLE sessions ADD COLUMN wrapup_status TEXT NOT NULL DEFAULT 'none'
    CHECK (wrapup_status IN ('none', 'pending', 'running', 'done'));
UPDATE sessions SET wrapup_status = 'done'
    WHERE id IN (SELECT session_id FROM action_log WHERE action_type = 'session_end');
