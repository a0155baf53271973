package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
)

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
