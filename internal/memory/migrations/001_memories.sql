-- Paige memories (embedded backend). One row per memory; the embedding is
-- little-endian float32, produced by the embedder named in memory_meta.
CREATE TABLE IF NOT EXISTS memories (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL,
    project     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    importance  TEXT NOT NULL,
    tags        TEXT NOT NULL,
    content     TEXT NOT NULL,
    embedding   BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_session ON memories (session_id);

CREATE TABLE IF NOT EXISTS memory_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
