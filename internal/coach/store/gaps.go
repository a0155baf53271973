package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// RecordKnowledgeGap stores a gap found by a session's wrap-up. A gap on a
// topic already stored (same topic, compared case-insensitively with
// surrounding spaces ignored) recurs: its row gets frequency + 1,
// last_encountered_at now, the new severity, evidence and related concepts,
// and addressed false again; it keeps its first session. Otherwise the gap
// is inserted as by [Tx.CreateKnowledgeGap]. It returns the stored row and
// whether it is new.
func (tx *Tx) RecordKnowledgeGap(ctx context.Context, g coach.KnowledgeGap) (coach.KnowledgeGap, bool, error) {
	var (
		prev    coach.KnowledgeGap
		prevSID string
	)
	err := tx.tx.QueryRowContext(ctx, `SELECT id, session_id, frequency FROM knowledge_gaps
		WHERE lower(trim(topic)) = lower(trim(?)) ORDER BY last_encountered_at DESC, id LIMIT 1`, g.Topic).
		Scan(&prev.ID, &prevSID, &prev.Frequency)
	if errors.Is(err, sql.ErrNoRows) {
		stored, err := tx.CreateKnowledgeGap(ctx, g)
		return stored, err == nil, err
	}
	if err != nil {
		return g, false, err
	}
	if !g.Severity.Valid() {
		return g, false, invalidf("knowledge gap severity %q", g.Severity)
	}
	if g.RelatedConcepts == nil {
		g.RelatedConcepts = []string{}
	}
	rel, _ := json.Marshal(g.RelatedConcepts)
	g.ID, g.SessionID, g.Frequency, g.Addressed = prev.ID, prevSID, prev.Frequency+1, false
	g.Topic = strings.TrimSpace(g.Topic)
	g.LastEncounteredAt = tx.s.now()
	_, err = tx.tx.ExecContext(ctx, `UPDATE knowledge_gaps SET frequency = ?, last_encountered_at = ?, severity = ?,
		evidence = ?, related_concepts = ?, addressed = 0 WHERE id = ?`,
		g.Frequency, sqlite.FormatTime(g.LastEncounteredAt), g.Severity, g.Evidence, string(rel), g.ID)
	return g, false, err
}
