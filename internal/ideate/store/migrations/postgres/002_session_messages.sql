-- The message history moves to one row per message, so a turn writes only
-- its own messages instead of the whole history.
CREATE TABLE IF NOT EXISTS session_messages (
    session_id UUID NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
INSERT INTO session_messages (session_id, seq, body)
    SELECT s.id, j.ord - 1, j.value::text
    FROM sessions s, jsonb_array_elements(s.message_history) WITH ORDINALITY AS j(value, ord);
ALTER TABLE sessions DROP COLUMN message_history;
