-- The message history moves to one row per message, so a turn writes only
-- its own messages instead of the whole history.
CREATE TABLE IF NOT EXISTS session_messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
INSERT INTO session_messages (session_id, seq, body)
    SELECT s.id, CAST(j.key AS INTEGER), j.value FROM sessions s, json_each(s.message_history) j;
ALTER TABLE sessions DROP COLUMN message_history;
