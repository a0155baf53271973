-- GhostPath schema (PostgreSQL).
CREATE TABLE IF NOT EXISTS sessions (
    id                UUID PRIMARY KEY,
    problem           TEXT NOT NULL,
    status            TEXT NOT NULL DEFAULT 'created'
                      CHECK (status IN ('created', 'active', 'resolved', 'cancelled')),
    created_at        TIMESTAMPTZ NOT NULL,
    resolved_at       TIMESTAMPTZ,
    total_tokens_used BIGINT NOT NULL DEFAULT 0,
    state_json        JSONB NOT NULL DEFAULT '{}',
    message_history   JSONB NOT NULL DEFAULT '[]',
    spec_path         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sessions_created_at ON sessions (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS sessions_status ON sessions (status);

CREATE TABLE IF NOT EXISTS rounds (
    id           UUID PRIMARY KEY,
    session_id   UUID NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (session_id, round_number)
);

CREATE TABLE IF NOT EXISTS premises (
    id                  UUID PRIMARY KEY,
    session_id          UUID NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    round_id            UUID NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    round_number        INTEGER NOT NULL,
    title               TEXT NOT NULL,
    body                TEXT NOT NULL DEFAULT '',
    premise_type        TEXT NOT NULL,
    violated_axiom      TEXT NOT NULL DEFAULT '',
    cross_domain_source TEXT NOT NULL DEFAULT '',
    obviousness_score   DOUBLE PRECISION,
    score               DOUBLE PRECISION,
    user_comment        TEXT NOT NULL DEFAULT '',
    is_winner           BOOLEAN NOT NULL DEFAULT FALSE,
    buffer_index        INTEGER NOT NULL DEFAULT 0,
    created_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS premises_session ON premises (session_id, round_number);

CREATE TABLE IF NOT EXISTS tool_calls (
    id          UUID PRIMARY KEY,
    session_id  UUID NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_name   TEXT NOT NULL,
    input_json  JSONB NOT NULL DEFAULT '{}',
    output_json JSONB NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL,
    error_code  TEXT NOT NULL DEFAULT '',
    iteration   INTEGER NOT NULL DEFAULT 0,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS tool_calls_session ON tool_calls (session_id, created_at);
