-- A call to a model with no known price has an unknown cost: NULL, never 0
-- (issue 13). SQLite cannot drop NOT NULL in place, so api_call_log is
-- rebuilt (new table, copy, drop, rename, indexes; the migration runs in
-- one transaction). Nothing references api_call_log.
CREATE TABLE api_call_log_new (
    id            TEXT PRIMARY KEY,
    session_id    TEXT REFERENCES sessions (id) ON DELETE CASCADE,
    call_type     TEXT NOT NULL,
    model         TEXT NOT NULL,
    input_hash    TEXT NOT NULL DEFAULT '',
    latency_ms    INTEGER NOT NULL,
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_estimate REAL,
    created_at    TEXT NOT NULL
);
INSERT INTO api_call_log_new (id, session_id, call_type, model, input_hash, latency_ms, input_tokens,
    output_tokens, cost_estimate, created_at)
SELECT id, session_id, call_type, model, input_hash, latency_ms, input_tokens, output_tokens,
    CASE
        -- A successful call with tokens but cost 0 was a model without a
        -- price: its cost is unknown.
        WHEN latency_ms >= 0 AND cost_estimate = 0 AND (input_tokens > 0 OR output_tokens > 0) THEN NULL
        -- claude-haiku-4-5 was priced at Claude 3.5 Haiku's $0.80 / $4;
        -- it costs $1 / $5, exactly 1.25 times as much.
        WHEN model = 'claude-haiku-4-5' OR model GLOB 'claude-haiku-4-5-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'
            THEN cost_estimate * 1.25
        ELSE cost_estimate
    END,
    created_at
FROM api_call_log;
DROP TABLE api_call_log;
ALTER TABLE api_call_log_new RENAME TO api_call_log;
CREATE INDEX IF NOT EXISTS api_call_log_session_created ON api_call_log (session_id, created_at);
CREATE INDEX IF NOT EXISTS api_call_log_created ON api_call_log (created_at);
