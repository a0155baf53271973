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

// UpsertDreyfus creates or overwrites the assessment of a.SkillArea
// (scenario 2.6, EC-09). The row keeps its id across updates — an upsert,
// not the spec's INSERT OR REPLACE, which would delete and re-insert — and
// assessed_at is set to now (NOTES.md: the spec's "last_updated" is
// assessed_at). Stage must be valid and Confidence within [0, 1].
func (s *Store) UpsertDreyfus(ctx context.Context, a coach.DreyfusAssessment) (coach.DreyfusAssessment, error) {
	return update(ctx, s, func(tx *Tx) (coach.DreyfusAssessment, error) { return tx.UpsertDreyfus(ctx, a) })
}

// UpsertDreyfus is [Store.UpsertDreyfus] inside a transaction.
func (tx *Tx) UpsertDreyfus(ctx context.Context, a coach.DreyfusAssessment) (coach.DreyfusAssessment, error) {
	if strings.TrimSpace(a.SkillArea) == "" {
		return a, invalidf("dreyfus assessment without a skill area")
	}
	if !a.Stage.Valid() {
		return a, invalidf("dreyfus stage %q", a.Stage)
	}
	if a.Confidence < 0 || a.Confidence > 1 {
		return a, invalidf("dreyfus confidence %v outside [0, 1]", a.Confidence)
	}
	a.AssessedAt = tx.s.now()
	row := tx.tx.QueryRowContext(ctx, `INSERT INTO dreyfus_assessments (id, skill_area, stage, confidence, evidence, assessed_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (skill_area) DO UPDATE SET stage = excluded.stage, confidence = excluded.confidence,
			evidence = excluded.evidence, assessed_at = excluded.assessed_at
		RETURNING id`,
		tx.s.NewID(), a.SkillArea, a.Stage, a.Confidence, a.Evidence, sqlite.FormatTime(a.AssessedAt))
	if err := row.Scan(&a.ID); err != nil {
		return a, insertErr("dreyfus assessment", "", err)
	}
	return a, nil
}

// DreyfusAssessments returns every assessment ordered by skill area.
func (s *Store) DreyfusAssessments(ctx context.Context) (list []coach.DreyfusAssessment, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		var err error
		list, err = QueryAll(ctx, tx, scanDreyfus, `SELECT id, skill_area, stage, confidence, evidence, assessed_at
			FROM dreyfus_assessments ORDER BY skill_area`)
		return err
	})
	return list, err
}

// GapFilter narrows [Store.KnowledgeGaps]. Zero fields do not filter.
type GapFilter struct {
	SessionID string
	Severity  coach.Severity
	Addressed *bool // nil: both
	Limit     int   // 0: no limit
}

// CreateKnowledgeGap stores a knowledge gap of a session (scenario 2.7).
// ID, if empty, is generated; Frequency defaults to 1; a zero
// LastEncounteredAt becomes now; nil RelatedConcepts is stored as [].
func (s *Store) CreateKnowledgeGap(ctx context.Context, g coach.KnowledgeGap) (coach.KnowledgeGap, error) {
	return update(ctx, s, func(tx *Tx) (coach.KnowledgeGap, error) { return tx.CreateKnowledgeGap(ctx, g) })
}

// CreateKnowledgeGap is [Store.CreateKnowledgeGap] inside a transaction.
func (tx *Tx) CreateKnowledgeGap(ctx context.Context, g coach.KnowledgeGap) (coach.KnowledgeGap, error) {
	if g.ID == "" {
		g.ID = tx.s.NewID()
	}
	rel, err := gapConcepts(&g)
	if err != nil {
		return g, err
	}
	if g.Frequency <= 0 {
		g.Frequency = 1
	}
	if g.LastEncounteredAt.IsZero() {
		g.LastEncounteredAt = tx.s.now()
	}
	_, err = tx.tx.ExecContext(ctx, `INSERT INTO knowledge_gaps (id, session_id, topic, severity, evidence, related_concepts,
		frequency, last_encountered_at, addressed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.SessionID, g.Topic, g.Severity, g.Evidence, rel, g.Frequency,
		sqlite.FormatTime(g.LastEncounteredAt), g.Addressed)
	return g, insertErr("knowledge gap", "session "+g.SessionID, err)
}

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
	rel, err := gapConcepts(&g)
	if err != nil {
		return g, false, err
	}
	g.ID, g.SessionID, g.Frequency, g.Addressed = prev.ID, prevSID, prev.Frequency+1, false
	g.Topic = strings.TrimSpace(g.Topic)
	g.LastEncounteredAt = tx.s.now()
	_, err = tx.tx.ExecContext(ctx, `UPDATE knowledge_gaps SET frequency = ?, last_encountered_at = ?, severity = ?,
		evidence = ?, related_concepts = ?, addressed = 0 WHERE id = ?`,
		g.Frequency, sqlite.FormatTime(g.LastEncounteredAt), g.Severity, g.Evidence, rel, g.ID)
	return g, false, err
}

// gapConcepts checks the severity and topic of g, makes nil
// RelatedConcepts [] and returns them as the JSON stored.
func gapConcepts(g *coach.KnowledgeGap) (string, error) {
	if !g.Severity.Valid() {
		return "", invalidf("knowledge gap severity %q", g.Severity)
	}
	if strings.TrimSpace(g.Topic) == "" {
		return "", invalidf("knowledge gap without a topic")
	}
	if g.RelatedConcepts == nil {
		g.RelatedConcepts = []string{}
	}
	rel, err := json.Marshal(g.RelatedConcepts)
	return string(rel), err
}

// KnowledgeGaps returns gaps matching f, most recently encountered first.
func (s *Store) KnowledgeGaps(ctx context.Context, f GapFilter) (list []coach.KnowledgeGap, err error) {
	query := `SELECT id, session_id, topic, severity, evidence, related_concepts, frequency, last_encountered_at, addressed
		FROM knowledge_gaps WHERE 1 = 1`
	var args []any
	if f.SessionID != "" {
		query += ` AND session_id = ?`
		args = append(args, f.SessionID)
	}
	if f.Severity != "" {
		query += ` AND severity = ?`
		args = append(args, f.Severity)
	}
	if f.Addressed != nil {
		query += ` AND addressed = ?`
		args = append(args, *f.Addressed)
	}
	query += ` ORDER BY last_encountered_at DESC, id DESC`
	if f.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	err = s.read(ctx, func(tx *sql.Tx) error {
		var err error
		list, err = QueryAll(ctx, tx, scanKnowledgeGap, query, args...)
		return err
	})
	return list, err
}

// SetGapAddressed marks a knowledge gap addressed or not; an unknown id is
// an error wrapping [ErrNotFound].
func (s *Store) SetGapAddressed(ctx context.Context, id string, addressed bool) error {
	return s.Update(ctx, func(tx *Tx) error { return tx.SetGapAddressed(ctx, id, addressed) })
}

// SetGapAddressed is [Store.SetGapAddressed] inside a transaction.
func (tx *Tx) SetGapAddressed(ctx context.Context, id string, addressed bool) error {
	return execFound(ctx, tx.tx, "knowledge gap", id, `UPDATE knowledge_gaps SET addressed = ? WHERE id = ?`, addressed, id)
}

func scanDreyfus(r Scanner) (a coach.DreyfusAssessment, err error) {
	var at string
	if err = r.Scan(&a.ID, &a.SkillArea, &a.Stage, &a.Confidence, &a.Evidence, &at); err != nil {
		return a, err
	}
	a.AssessedAt, err = parseTime(at)
	return a, err
}

func scanKnowledgeGap(r Scanner) (g coach.KnowledgeGap, err error) {
	var rel, at string
	if err = r.Scan(&g.ID, &g.SessionID, &g.Topic, &g.Severity, &g.Evidence, &rel, &g.Frequency, &at, &g.Addressed); err != nil {
		return g, err
	}
	if err = decodeList(rel, &g.RelatedConcepts); err != nil {
		return g, err
	}
	g.LastEncounteredAt, err = parseTime(at)
	return g, err
}

// CreateKata stores a kata spec for a knowledge gap (scenario 2.8). ID, if
// empty, is generated; nil Constraints are stored as []; UserAttempts starts
// empty whatever k holds (attempts are added with [Store.AppendKataAttempt]).
func (s *Store) CreateKata(ctx context.Context, k coach.KataSpec) (coach.KataSpec, error) {
	return update(ctx, s, func(tx *Tx) (coach.KataSpec, error) { return tx.CreateKata(ctx, k) })
}

// CreateKata is [Store.CreateKata] inside a transaction.
func (tx *Tx) CreateKata(ctx context.Context, k coach.KataSpec) (coach.KataSpec, error) {
	if k.ID == "" {
		k.ID = tx.s.NewID()
	}
	if strings.TrimSpace(k.Title) == "" {
		return k, invalidf("kata without a title")
	}
	if k.Constraints == nil {
		k.Constraints = []coach.KataConstraint{}
	}
	k.UserAttempts = []coach.KataAttempt{}
	cons, err := json.Marshal(k.Constraints)
	if err != nil {
		return k, invalidf("kata constraints: %v", err)
	}
	_, err = tx.tx.ExecContext(ctx, `INSERT INTO kata_specs (id, knowledge_gap_id, title, description, scaffolding_code,
		instructor_notes, constraints, user_attempts) VALUES (?, ?, ?, ?, ?, ?, ?, '[]')`,
		k.ID, k.KnowledgeGapID, k.Title, k.Description, k.ScaffoldingCode, k.InstructorNotes, string(cons))
	return k, insertErr("kata", "knowledge gap "+k.KnowledgeGapID, err)
}

const kataCols = `id, knowledge_gap_id, title, description, scaffolding_code, instructor_notes, constraints, user_attempts`

// Kata returns the kata with id, or an error wrapping [ErrNotFound].
func (s *Store) Kata(ctx context.Context, id string) (k coach.KataSpec, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		k, err = scanKata(tx.QueryRowContext(ctx, `SELECT `+kataCols+` FROM kata_specs WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			err = notFound("kata", id)
		}
		return err
	})
	return k, err
}

// Katas returns the katas of one knowledge gap, or of every gap when
// gapID is empty, in creation order.
func (s *Store) Katas(ctx context.Context, gapID string) (list []coach.KataSpec, err error) {
	query := `SELECT ` + kataCols + ` FROM kata_specs`
	var args []any
	if gapID != "" {
		query += ` WHERE knowledge_gap_id = ?`
		args = append(args, gapID)
	}
	err = s.read(ctx, func(tx *sql.Tx) error {
		var err error
		list, err = QueryAll(ctx, tx, scanKata, query+` ORDER BY rowid`, args...)
		return err
	})
	return list, err
}

// AppendKataAttempt appends one attempt to the kata's user_attempts array
// and returns the new number of attempts (scenario 2.9). Earlier attempts
// are preserved and concurrent appends never lose one (EC-79): the append
// is a single UPDATE with json_insert, atomic under SQLite's write lock.
func (s *Store) AppendKataAttempt(ctx context.Context, kataID string, a coach.KataAttempt) (n int, err error) {
	body, err := json.Marshal(a)
	if err != nil {
		return 0, invalidf("kata attempt: %v", err)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		row := tx.tx.QueryRowContext(ctx, `UPDATE kata_specs
			SET user_attempts = json_insert(user_attempts, '$[#]', json(?))
			WHERE id = ? RETURNING json_array_length(user_attempts)`, string(body), kataID)
		err := row.Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("kata", kataID)
		}
		return err
	})
	return n, err
}

func scanKata(r Scanner) (coach.KataSpec, error) {
	var k coach.KataSpec
	var cons, attempts string
	if err := r.Scan(&k.ID, &k.KnowledgeGapID, &k.Title, &k.Description, &k.ScaffoldingCode, &k.InstructorNotes,
		&cons, &attempts); err != nil {
		return k, err
	}
	if err := decodeList(cons, &k.Constraints); err != nil {
		return k, err
	}
	return k, decodeList(attempts, &k.UserAttempts)
}
