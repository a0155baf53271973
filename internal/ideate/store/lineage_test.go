package store

import (
	"context"
	"database/sql"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
)

type lineage struct{ Title, Source, Primary string }

func lineageOf(ps []core.Premise) []lineage {
	var out []lineage
	for _, p := range ps {
		out = append(out, lineage{p.Title, p.SourceTitle, p.PrimaryTitle})
	}
	return out
}

// TestPremiseLineage stores a fresh, a mutated and a combined premise on
// every engine and reads their lineage back; absent lineage is NULL.
func TestPremiseLineage(t *testing.T) {
	onEveryEngine(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		sess := newSession(t, s, t0)
		want := []lineage{{"Fresh", "", ""}, {"Mutant", "Fresh", ""}, {"Hybrid", "", "Fresh"}}
		var ps []core.Premise
		for i, l := range want {
			ps = append(ps, core.Premise{Title: l.Title, Body: "b", PremiseType: core.PremiseConservative,
				SourceTitle: l.Source, PrimaryTitle: l.Primary, ObviousnessScore: f(0.3), BufferIndex: i})
		}
		if err := s.SaveRound(ctx, core.Round{SessionID: sess.ID, RoundNumber: 1}, ps); err != nil {
			t.Fatal(err)
		}
		got, err := s.QueryPremises(ctx, sess.ID, core.PremiseQuery{Filter: core.FilterAll})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, lineageOf(got)); diff != "" {
			t.Errorf("lineage (-want +got):\n%s", diff)
		}
		var nulls int
		if err := s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM premises WHERE session_id = ?
			AND source_title IS NULL AND primary_title IS NULL`), sess.ID).Scan(&nulls); err != nil {
			t.Fatal(err)
		}
		if nulls != 1 {
			t.Errorf("premises without lineage stored as NULL: got %d, want 1", nulls)
		}
	})
}

// oldPremiseSeed writes a session, a round and a premise with schema 002's
// columns; the arguments are the session, round and premise ids.
var oldPremiseSeed = []string{
	`INSERT INTO sessions (id, problem, status, created_at) VALUES (?, 'p', 'active', '2026-01-01T00:00:00.000Z')`,
	`INSERT INTO rounds (id, session_id, round_number, created_at) VALUES (?, ?, 1, '2026-01-01T00:00:00.000Z')`,
	`INSERT INTO premises (id, session_id, round_id, round_number, title, premise_type, created_at)
	VALUES (?, ?, ?, 1, 'Old', 'initial', '2026-01-01T00:00:00.000Z')`,
}

// TestMigrateLineageKeepsPremises upgrades a database of schema 002 holding
// a premise: the premise survives, with empty lineage.
func TestMigrateLineageKeepsPremises(t *testing.T) {
	sess, round, premise := NewID(), NewID(), NewID()
	args := [][]any{{sess}, {round, sess}, {premise, sess, round}}
	testUpgrade(t, 3, func(t *testing.T, db *sql.DB, pg bool) {
		t.Helper()
		for i, stmt := range oldPremiseSeed {
			if _, err := db.Exec((&Store{pg: pg}).q(stmt), args[i]...); err != nil {
				t.Fatalf("seed %d: %v", i, err)
			}
		}
	}, func(t *testing.T, s *Store) { checkOldPremise(t, s, sess) })
}

func checkOldPremise(t *testing.T, s *Store, sess string) {
	t.Helper()
	got, err := s.QueryPremises(context.Background(), sess, core.PremiseQuery{Filter: core.FilterAll})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]lineage{{"Old", "", ""}}, lineageOf(got)); diff != "" {
		t.Errorf("migrated premises (-want +got):\n%s", diff)
	}
}
