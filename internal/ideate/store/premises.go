package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/sqlite"
)

const premiseCols = `id, session_id, round_id, round_number, title, body, premise_type, violated_axiom,
	cross_domain_source, obviousness_score, score, user_comment, is_winner, buffer_index, created_at,
	source_title, primary_title, secondary_titles`

// SaveRound inserts r and its premises in one transaction. Empty ids are
// generated; premises take r's id, session and number.
func (s *Store) SaveRound(ctx context.Context, r core.Round, premises []core.Premise) error {
	if !validID(r.SessionID) {
		return notFound("session", r.SessionID)
	}
	if r.ID == "" {
		r.ID = NewID()
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save round: %w", err)
	}
	defer rollback(tx)
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO rounds (id, session_id, round_number, created_at) VALUES (?, ?, ?, ?)`),
		r.ID, r.SessionID, r.RoundNumber, s.ts(r.CreatedAt)); err != nil {
		return fmt.Errorf("save round: %w", err)
	}
	for _, p := range premises {
		p.SessionID, p.RoundID, p.RoundNumber = r.SessionID, r.ID, r.RoundNumber
		if err := s.insertPremise(ctx, tx, p); err != nil {
			return fmt.Errorf("save round: %w", err)
		}
	}
	return tx.Commit()
}

func (s *Store) insertPremise(ctx context.Context, tx *sql.Tx, p core.Premise) error {
	if p.ID == "" {
		p.ID = NewID()
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.now()
	}
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO premises (`+premiseCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		p.ID, p.SessionID, p.RoundID, p.RoundNumber, p.Title, p.Body, string(p.PremiseType), p.ViolatedAxiom,
		p.CrossDomainSource, p.ObviousnessScore, p.Score, p.UserComment, p.IsWinner, p.BufferIndex, s.ts(p.CreatedAt),
		nullIfEmpty(p.SourceTitle), nullIfEmpty(p.PrimaryTitle), titlesJSON(p.SecondaryTitles))
	return err
}

// titlesJSON stores a combination's other parents as a JSON array, NULL
// when there are none.
func titlesJSON(ts []string) sql.NullString {
	if len(ts) == 0 {
		return sql.NullString{}
	}
	b, _ := json.Marshal(ts)
	return sql.NullString{String: string(b), Valid: true}
}

// nullIfEmpty stores an absent lineage title as NULL, like the rows written
// before the lineage columns existed.
func nullIfEmpty(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// CountRounds returns how many rounds the session has.
func (s *Store) CountRounds(ctx context.Context, sessionID string) (int, error) {
	if !validID(sessionID) {
		return 0, notFound("session", sessionID)
	}
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM rounds WHERE session_id = ?`), sessionID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count rounds: %w", err)
	}
	return n, nil
}

// ListRounds returns the session's rounds by number.
func (s *Store) ListRounds(ctx context.Context, sessionID string) ([]core.Round, error) {
	if !validID(sessionID) {
		return nil, notFound("session", sessionID)
	}
	return sqlite.QueryAll(ctx, s.db, "list rounds", s.q(`SELECT id, session_id, round_number, created_at FROM rounds
		WHERE session_id = ? ORDER BY round_number`), []any{sessionID}, func(row scanner) (core.Round, error) {
		var r core.Round
		err := row.Scan(&r.ID, &r.SessionID, &r.RoundNumber, dbTime{&r.CreatedAt})
		return r, err
	})
}

// UpsertPremise updates the session's premise with p's round number and
// title (body and type when given), or inserts it, creating the round when
// missing. It returns the id. What is the user's is never changed here: the
// score and comment of an existing premise (set through
// [Store.UpdateScore]), the winner (set through [Store.MarkWinner]: p
// marked winner is refused with [core.ErrWinnerIsUsers] unless it is
// already the user's winner) and the text and type of a scored premise
// (refused with [core.ErrScoredPremiseFixed]). A new premise is stored with
// p's score and comment.
func (s *Store) UpsertPremise(ctx context.Context, p core.Premise) (string, error) {
	if !validID(p.SessionID) {
		return "", notFound("session", p.SessionID)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("upsert premise: %w", err)
	}
	defer rollback(tx)
	var (
		id, body, typ string
		score         sql.NullFloat64
		winner        bool
	)
	err = tx.QueryRowContext(ctx, s.q(`SELECT id, body, premise_type, score, is_winner FROM premises
		WHERE session_id = ? AND round_number = ? AND title = ?
		ORDER BY created_at DESC LIMIT 1`), p.SessionID, p.RoundNumber, p.Title).Scan(&id, &body, &typ, &score, &winner)
	if err != nil && !isNoRows(err) {
		return "", fmt.Errorf("upsert premise: %w", err)
	}
	if p.IsWinner && (err != nil || !winner) {
		return "", core.ErrWinnerIsUsers
	}
	switch {
	case err == nil:
		if score.Valid && (p.Body != "" && p.Body != body || p.PremiseType != "" && string(p.PremiseType) != typ) {
			return "", core.ErrScoredPremiseFixed
		}
		_, err = tx.ExecContext(ctx, s.q(`UPDATE premises SET
			body = CASE WHEN ? = '' THEN body ELSE ? END,
			premise_type = CASE WHEN ? = '' THEN premise_type ELSE ? END
			WHERE id = ?`),
			p.Body, p.Body, string(p.PremiseType), string(p.PremiseType), id)
	case isNoRows(err):
		id, err = s.insertLoosePremise(ctx, tx, p)
	}
	if err != nil {
		return "", fmt.Errorf("upsert premise: %w", err)
	}
	return id, tx.Commit()
}

func (s *Store) insertLoosePremise(ctx context.Context, tx *sql.Tx, p core.Premise) (string, error) {
	var roundID string
	err := tx.QueryRowContext(ctx, s.q(`SELECT id FROM rounds WHERE session_id = ? AND round_number = ?`),
		p.SessionID, p.RoundNumber).Scan(&roundID)
	if isNoRows(err) {
		roundID = NewID()
		_, err = tx.ExecContext(ctx, s.q(`INSERT INTO rounds (id, session_id, round_number, created_at) VALUES (?, ?, ?, ?)`),
			roundID, p.SessionID, p.RoundNumber, s.ts(s.now()))
	}
	if err != nil {
		return "", err
	}
	// A premise stored outside a round's buffer goes after the round's others.
	if err := tx.QueryRowContext(ctx, s.q(`SELECT count(*) FROM premises WHERE round_id = ?`), roundID).Scan(&p.BufferIndex); err != nil {
		return "", err
	}
	p.ID, p.RoundID = NewID(), roundID
	return p.ID, s.insertPremise(ctx, tx, p)
}

// QueryPremises returns the session's premises matching q.
func (s *Store) QueryPremises(ctx context.Context, sessionID string, q core.PremiseQuery) ([]core.Premise, error) {
	if !validID(sessionID) {
		return nil, notFound("session", sessionID)
	}
	query := `SELECT ` + premiseCols + ` FROM premises WHERE session_id = ?`
	args := []any{sessionID}
	order := ` ORDER BY round_number, buffer_index, created_at`
	switch q.Filter {
	case core.FilterWinners:
		query += ` AND is_winner = ?`
		args = append(args, true)
	case core.FilterTopScored:
		query += ` AND score IS NOT NULL`
		order = ` ORDER BY score DESC, round_number DESC`
	case core.FilterLowScored, core.FilterNegative:
		query += ` AND score IS NOT NULL AND score < ?`
		args = append(args, core.NegativeScoreThreshold)
		order = ` ORDER BY score, round_number`
	case core.FilterByType:
		query += ` AND premise_type = ?`
		args = append(args, string(q.PremiseType))
	case core.FilterByRound:
		query += ` AND round_number = ?`
		args = append(args, q.RoundNumber)
	}
	query += order
	if q.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, q.Limit)
	}
	return sqlite.QueryAll(ctx, s.db, "query premises", s.q(query), args, scanPremise)
}

func scanPremise(row scanner) (core.Premise, error) {
	var p core.Premise
	var typ string
	var obv, score sql.NullFloat64
	var source, primary, secondary sql.NullString
	err := row.Scan(&p.ID, &p.SessionID, &p.RoundID, &p.RoundNumber, &p.Title, &p.Body, &typ, &p.ViolatedAxiom,
		&p.CrossDomainSource, &obv, &score, &p.UserComment, &p.IsWinner, &p.BufferIndex, dbTime{&p.CreatedAt},
		&source, &primary, &secondary)
	p.PremiseType = core.PremiseType(typ)
	p.SourceTitle, p.PrimaryTitle = source.String, primary.String
	if secondary.Valid && err == nil {
		if jerr := json.Unmarshal([]byte(secondary.String), &p.SecondaryTitles); jerr != nil {
			return p, fmt.Errorf("decode secondary titles of premise %s: %w", p.ID, jerr)
		}
	}
	if obv.Valid {
		p.ObviousnessScore = &obv.Float64
	}
	if score.Valid {
		p.Score = &score.Float64
	}
	return p, err
}

// UpdateScore sets a premise's score and comment (comment untouched when
// nil), naming it by id or else by title (the latest with that title).
func (s *Store) UpdateScore(ctx context.Context, sessionID string, u core.ScoreUpdate) error {
	if !validID(sessionID) {
		return notFound("session", sessionID)
	}
	id := u.PremiseID
	if id == "" {
		err := s.db.QueryRowContext(ctx, s.q(`SELECT id FROM premises WHERE session_id = ? AND title = ?
			ORDER BY round_number DESC, created_at DESC LIMIT 1`), sessionID, u.Title).Scan(&id)
		if isNoRows(err) {
			return notFound("premise", u.Title)
		}
		if err != nil {
			return fmt.Errorf("update score: %w", err)
		}
	}
	if !validID(id) {
		return notFound("premise", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE premises SET score = ?, user_comment = COALESCE(?, user_comment)
		WHERE id = ? AND session_id = ?`), u.Score, u.Comment, id, sessionID)
	if err != nil {
		return fmt.Errorf("update score: %w", err)
	}
	return affected(res, "premise", id)
}

// MarkWinner flags the premise as the session's winner.
func (s *Store) MarkWinner(ctx context.Context, sessionID, premiseID string) error {
	if !validID(sessionID) || !validID(premiseID) {
		return notFound("premise", premiseID)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE premises SET is_winner = ? WHERE id = ? AND session_id = ?`),
		true, premiseID, sessionID)
	if err != nil {
		return fmt.Errorf("mark winner: %w", err)
	}
	return affected(res, "premise", premiseID)
}
