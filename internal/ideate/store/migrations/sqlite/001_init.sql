-- GhostPath schema (SQLite). Times are ISO 8601 UTC text; JSON is text.
CREATE TABLE IF NOT EXISTS sessions (
    id                TEXT PRIMARY KEY,
    problem           TEXT NOT NULL,
    status            TEXT NOT NULL DEFAULT 'created'
                      CHECK (status IN ('created', 'active', 'resolved', 'cancelled')),
    created_at        TEXT NOT NULL,
    resolved_at       TEXT,
    total_tokens_used INTEGER NOT NULL DEFAULT 0,
    state_json        TEXT NOT NULL DEFAULT '{}',
    message_history   TEXT NOT NULL DEFAULT '[]',
    spec_path         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sessions_created_at ON sessions (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS sessions_status ON sessions (status);

CREATE TABLE IF NOT EXISTS rounds (
    id           TEXT PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    UNIQUE (session_id, round_number)
);

CREATE TABLE IF NOT EXISTS premises (
    id                  TEXT PRIMARY KEY,
    session_id          TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    round_id            TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    round_number        INTEGER NOT NULL,
    title               TEXT NOT NULL,
    body                TEXT NOT NULL DEFAULT '',
    premise_type        TEXT NOT NULL,
    violated_axiom      TEXT NOT NULL DEFAULT '',
    cross_domain_source TEXT NOT NULL DEFAULT '',
    obviousness_score   REAL,
    score               REAL,
    user_comment        TEXT NOT NULL DEFAULT '',
    is_winner           INTEGER NOT NULL DEFAULT 0,
    buffer_index        INTEGER NOT NULL DEFAULT 0,
    created_at          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS premises_session ON premises (session_id, round_number);

CREATE TABLE IF NOT EXISTS tool_calls (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_name   TEXT NOT NULL,
    input_json  TEXT NOT NULL DEFAULT '{}',
    output_json TEXT NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL,
    error_code  TEXT NOT NULL DEFAULT '',
    iteration   INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tool_calls_session ON tool_calls (session_id, created_at);
