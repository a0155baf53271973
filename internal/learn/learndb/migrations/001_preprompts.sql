CREATE TABLE IF NOT EXISTS preprompts (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    type       TEXT NOT NULL CHECK (type IN ('core', 'persona', 'hard_rule', 'domain')),
    content    TEXT NOT NULL,
    priority   INTEGER NOT NULL DEFAULT 0,
    active     INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS preprompts_active ON preprompts (active, priority);
