-- Paige coaching state (spec stories 2 and 4): 10 tables.
-- Ids are TEXT (UUID v7), timestamps ISO 8601 UTC text, JSON columns TEXT.
-- Children cascade on delete so removing a session or plan removes what hangs off it.

CREATE TABLE IF NOT EXISTS sessions (
    id           TEXT PRIMARY KEY,
    project_dir  TEXT NOT NULL,
    issue_number INTEGER,
    issue_title  TEXT,
    status       TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'abandoned')),
    started_at   TEXT NOT NULL,
    ended_at     TEXT
);
CREATE INDEX IF NOT EXISTS sessions_status_started ON sessions (status, started_at);

CREATE TABLE IF NOT EXISTS plans (
    id            TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    raw_plan_text TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS plans_session ON plans (session_id, created_at);

CREATE TABLE IF NOT EXISTS phases (
    id             TEXT PRIMARY KEY,
    plan_id        TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL,
    title          TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'complete')),
    hint_level     TEXT NOT NULL DEFAULT 'none',
    expected_files TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(expected_files)),
    started_at     TEXT,
    completed_at   TEXT
);
CREATE INDEX IF NOT EXISTS phases_plan ON phases (plan_id, number);

CREATE TABLE IF NOT EXISTS phase_hints (
    id         TEXT PRIMARY KEY,
    phase_id   TEXT NOT NULL REFERENCES phases (id) ON DELETE CASCADE,
    type       TEXT NOT NULL CHECK (type IN ('file', 'line')),
    path       TEXT NOT NULL,
    start_line INTEGER,
    end_line   INTEGER,
    style      TEXT NOT NULL DEFAULT '',
    hover_text TEXT
);
CREATE INDEX IF NOT EXISTS phase_hints_phase ON phase_hints (phase_id, type);

CREATE TABLE IF NOT EXISTS progress_events (
    id         TEXT PRIMARY KEY,
    phase_id   TEXT NOT NULL REFERENCES phases (id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    data       TEXT CHECK (data IS NULL OR json_valid(data)),
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS progress_events_phase ON progress_events (phase_id, created_at);

CREATE TABLE IF NOT EXISTS dreyfus_assessments (
    id          TEXT PRIMARY KEY,
    skill_area  TEXT NOT NULL UNIQUE,
    stage       TEXT NOT NULL CHECK (stage IN ('novice', 'advanced_beginner', 'competent', 'proficient', 'expert')),
    confidence  REAL NOT NULL,
    evidence    TEXT NOT NULL DEFAULT '',
    assessed_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS knowledge_gaps (
    id                  TEXT PRIMARY KEY,
    session_id          TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    topic               TEXT NOT NULL,
    severity            TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
    evidence            TEXT NOT NULL DEFAULT '',
    related_concepts    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(related_concepts)),
    frequency           INTEGER NOT NULL DEFAULT 1,
    last_encountered_at TEXT NOT NULL,
    addressed           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS knowledge_gaps_session ON knowledge_gaps (session_id);
CREATE INDEX IF NOT EXISTS knowledge_gaps_addressed ON knowledge_gaps (addressed, last_encountered_at);

CREATE TABLE IF NOT EXISTS kata_specs (
    id               TEXT PRIMARY KEY,
    knowledge_gap_id TEXT NOT NULL REFERENCES knowledge_gaps (id) ON DELETE CASCADE,
    title            TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    scaffolding_code TEXT NOT NULL DEFAULT '',
    instructor_notes TEXT NOT NULL DEFAULT '',
    constraints      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(constraints)),
    user_attempts    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(user_attempts))
);
CREATE INDEX IF NOT EXISTS kata_specs_gap ON kata_specs (knowledge_gap_id);

CREATE TABLE IF NOT EXISTS action_log (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    action_type TEXT NOT NULL,
    data        TEXT CHECK (data IS NULL OR json_valid(data)),
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS action_log_session_created ON action_log (session_id, created_at);
CREATE INDEX IF NOT EXISTS action_log_session_type_created ON action_log (session_id, action_type, created_at);

CREATE TABLE IF NOT EXISTS api_call_log (
    id            TEXT PRIMARY KEY,
    session_id    TEXT REFERENCES sessions (id) ON DELETE CASCADE,
    call_type     TEXT NOT NULL,
    model         TEXT NOT NULL,
    input_hash    TEXT NOT NULL DEFAULT '',
    latency_ms    INTEGER NOT NULL,
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_estimate REAL NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS api_call_log_session_created ON api_call_log (session_id, created_at);
CREATE INDEX IF NOT EXISTS api_call_log_created ON api_call_log (created_at);
