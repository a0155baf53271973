package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// TestRepository runs one suite against every engine.
func TestRepository(t *testing.T) {
	suite := map[string]func(*testing.T, *Store){
		"session lifecycle":   testSessionLifecycle,
		"list and paginate":   testListSessions,
		"search and activity": testListSearchActivity,
		"rounds and premises": testRoundsAndPremises,
		"query filters":       testQueryFilters,
		"upsert premise":      testUpsertPremise,
		"tool calls":          testToolCalls,
		"cascading delete":    testCascade,
		"not found":           testNotFound,
		"concurrent writes":   testConcurrent,
		"incremental history": testIncrementalMessages,
	}
	for engine, open := range engines() {
		t.Run(engine, func(t *testing.T) {
			for name, f := range suite {
				t.Run(name, func(t *testing.T) { f(t, open(t)) })
			}
		})
	}
}

var t0 = time.Date(2026, 2, 11, 14, 30, 0, 0, time.UTC)

func newSession(tb testing.TB, s *Store, at time.Time) core.Session {
	tb.Helper()
	sess := core.Session{ID: NewID(), Problem: "How might we reduce churn?", Status: core.StatusCreated, CreatedAt: at}
	if err := s.CreateSession(context.Background(), sess); err != nil {
		tb.Fatal(err)
	}
	return sess
}

func testSessionLifecycle(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	if ok, err := s.SetStatusIf(ctx, sess.ID, core.StatusCreated, core.StatusCreated); !ok || err != nil {
		t.Errorf("SetStatusIf got %v %v, want true", ok, err)
	}
	got, err := s.GetSession(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Problem != sess.Problem || got.Status != core.StatusCreated || !got.CreatedAt.Equal(t0) || got.ResolvedAt != nil {
		t.Errorf("got %+v", got)
	}
	if string(got.Messages) != "[]" {
		t.Errorf("messages got %s, want []", got.Messages)
	}
	state := core.State{RoundNumber: 2, ExtractedAxioms: []string{"a"}, Awaiting: core.AwaitScores,
		Pending: &core.Event{Type: core.EventAskUser, Data: map[string]any{"question": "Q?"}}}
	state.CompleteGate(core.GateDecompose)
	msgs := json.RawMessage(`[{"role":"user","content":"hi"}]`)
	split, _ := core.SplitMessages(msgs)
	if err := s.SaveProgress(ctx, sess.ID, core.Progress{State: state, Messages: split, TotalTokens: 1234}); err != nil {
		t.Fatal(err)
	}
	resolved := t0.Add(time.Hour)
	if err := s.UpdateStatus(ctx, sess.ID, core.StatusResolved, &resolved); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.SetStatusIf(ctx, sess.ID, core.StatusCreated, core.StatusActive); ok || err != nil {
		t.Errorf("SetStatusIf from created on a resolved session: got %v %v, want false", ok, err)
	}
	if err := s.SetSpecPath(ctx, sess.ID, "/data/spec.md"); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetSession(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.TotalTokensUsed != 1234 || got.Status != core.StatusResolved || got.ResolvedAt == nil || !got.ResolvedAt.Equal(resolved) || got.SpecPath != "/data/spec.md" {
		t.Errorf("got %+v", got)
	}
	var gotMsgs, wantMsgs any
	json.Unmarshal(got.Messages, &gotMsgs)
	json.Unmarshal(msgs, &wantMsgs)
	if diff := cmp.Diff(wantMsgs, gotMsgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if got.State.RoundNumber != 2 || !got.State.HasGate(core.GateDecompose) || got.State.Pending == nil || got.State.Pending.Type != core.EventAskUser {
		t.Errorf("state got %+v", got.State)
	}
}

func testListSessions(t *testing.T, s *Store) {
	ctx := context.Background()
	var ids []string
	for i := range 5 {
		ids = append(ids, newSession(t, s, t0.Add(time.Duration(i)*time.Minute)).ID)
	}
	s.UpdateStatus(ctx, ids[1], core.StatusCancelled, nil)
	page, err := s.ListSessions(ctx, core.ListOptions{Limit: 2, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ids[3], ids[2]}, sessionIDs(page)); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
	cancelled, err := s.ListSessions(ctx, core.ListOptions{Status: core.StatusCancelled})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ids[1]}, sessionIDs(cancelled)); diff != "" {
		t.Errorf("filter (-want +got):\n%s", diff)
	}
	all, _ := s.ListSessions(ctx, core.ListOptions{})
	if len(all) != 5 {
		t.Errorf("default limit: got %d, want 5", len(all))
	}
}

func sessionIDs(ss []core.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func f(v float64) *float64 { return &v }

func saveRound(tb testing.TB, s *Store, sessionID string, n int, titles ...string) []core.Premise {
	tb.Helper()
	var ps []core.Premise
	for i, title := range titles {
		ps = append(ps, core.Premise{ID: NewID(), Title: title, Body: "body " + title, PremiseType: core.PremiseInitial,
			ObviousnessScore: f(0.2), BufferIndex: i, CreatedAt: t0.Add(time.Duration(i) * time.Second)})
	}
	if err := s.SaveRound(context.Background(), core.Round{SessionID: sessionID, RoundNumber: n, CreatedAt: t0}, ps); err != nil {
		tb.Fatal(err)
	}
	return ps
}

func testRoundsAndPremises(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	r1 := saveRound(t, s, sess.ID, 1, "A", "B", "C")
	saveRound(t, s, sess.ID, 2, "D", "E", "F")
	if n, err := s.CountRounds(ctx, sess.ID); err != nil || n != 2 {
		t.Fatalf("count got %d %v, want 2", n, err)
	}
	if err := s.SaveRound(ctx, core.Round{SessionID: sess.ID, RoundNumber: 2}, nil); err == nil {
		t.Error("duplicate round number accepted")
	}
	if err := s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{PremiseID: r1[0].ID, Score: 7.2, Comment: ptr("good")}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{Title: "B", Score: 4.1}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkWinner(ctx, sess.ID, r1[0].ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryPremises(ctx, sess.ID, core.PremiseQuery{Filter: core.FilterByRound, RoundNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Title != "A" || *got[0].Score != 7.2 || got[0].UserComment != "good" || !got[0].IsWinner ||
		*got[1].Score != 4.1 || got[2].Score != nil || *got[0].ObviousnessScore != 0.2 || got[0].RoundID == "" {
		t.Errorf("got %+v", got)
	}
	rounds, _ := s.ListRounds(ctx, sess.ID)
	if len(rounds) != 2 || rounds[0].RoundNumber != 1 || rounds[0].ID != got[0].RoundID {
		t.Errorf("rounds got %+v", rounds)
	}
}

func ptr[T any](v T) *T { return &v }

func titles(ps []core.Premise) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Title)
	}
	return out
}

func testQueryFilters(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	r1 := saveRound(t, s, sess.ID, 1, "A", "B", "C")
	r2 := saveRound(t, s, sess.ID, 2, "D", "E", "F")
	for i, sc := range []float64{7, 2, 5} {
		s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{PremiseID: r1[i].ID, Score: sc})
	}
	s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{PremiseID: r2[0].ID, Score: 9})
	s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{PremiseID: r2[1].ID, Score: 4.9})
	s.MarkWinner(ctx, sess.ID, r2[0].ID)
	s.UpsertPremise(ctx, core.Premise{SessionID: sess.ID, RoundNumber: 2, Title: "R", PremiseType: core.PremiseRadical})
	tests := []struct {
		q    core.PremiseQuery
		want []string
	}{
		{core.PremiseQuery{Filter: core.FilterAll}, []string{"A", "B", "C", "D", "E", "F", "R"}},
		{core.PremiseQuery{Filter: core.FilterAll, Limit: 2}, []string{"A", "B"}},
		{core.PremiseQuery{Filter: core.FilterWinners}, []string{"D"}},
		{core.PremiseQuery{Filter: core.FilterTopScored, Limit: 2}, []string{"D", "A"}},
		{core.PremiseQuery{Filter: core.FilterLowScored}, []string{"B", "E"}},
		{core.PremiseQuery{Filter: core.FilterNegative}, []string{"B", "E"}},
		{core.PremiseQuery{Filter: core.FilterByType, PremiseType: core.PremiseRadical}, []string{"R"}},
		{core.PremiseQuery{Filter: core.FilterByRound, RoundNumber: 2}, []string{"D", "E", "F", "R"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.q.Filter, tt.q.Limit), func(t *testing.T) {
			got, err := s.QueryPremises(ctx, sess.ID, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, titles(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func testUpsertPremise(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	r1 := saveRound(t, s, sess.ID, 1, "A", "B", "C")
	if err := s.UpdateScore(ctx, sess.ID, core.ScoreUpdate{PremiseID: r1[0].ID, Score: 7.2, Comment: ptr("Like this but cheaper")}); err != nil {
		t.Fatal(err)
	}
	// The agent's score and comment never replace the user's.
	id, err := s.UpsertPremise(ctx, core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "A", Score: f(8.5), UserComment: "yes"})
	if err != nil || id != r1[0].ID {
		t.Fatalf("got %s %v, want existing id %s", id, err, r1[0].ID)
	}
	// Nor does it pick the winner or rewrite a scored premise (issue 28).
	for _, p := range []struct {
		p    core.Premise
		want error
	}{
		{core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "B", IsWinner: true}, core.ErrWinnerIsUsers},
		{core.Premise{SessionID: sess.ID, RoundNumber: 4, Title: "New", IsWinner: true}, core.ErrWinnerIsUsers},
		{core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "A", Body: "rewritten"}, core.ErrScoredPremiseFixed},
		{core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "A", PremiseType: core.PremiseRadical}, core.ErrScoredPremiseFixed},
	} {
		if _, err := s.UpsertPremise(ctx, p.p); !errors.Is(err, p.want) {
			t.Errorf("upsert %+v: got %v, want %v", p.p, err, p.want)
		}
	}
	if err := s.MarkWinner(ctx, sess.ID, r1[0].ID); err != nil {
		t.Fatal(err)
	}
	// Naming the user's winner as the winner, with its own text, changes nothing.
	if id, err := s.UpsertPremise(ctx, core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "A", Body: "body A", IsWinner: true}); err != nil || id != r1[0].ID {
		t.Fatalf("the user's winner again: got %s %v", id, err)
	}
	if _, err := s.UpsertPremise(ctx, core.Premise{SessionID: sess.ID, RoundNumber: 1, Title: "B", Score: f(9), UserComment: "agent"}); err != nil {
		t.Fatal(err)
	}
	newID, err := s.UpsertPremise(ctx, core.Premise{SessionID: sess.ID, RoundNumber: 3, Title: "Z", Body: "zb", PremiseType: core.PremiseCombination})
	if err != nil || newID == "" {
		t.Fatal(err)
	}
	got, _ := s.QueryPremises(ctx, sess.ID, core.PremiseQuery{Filter: core.FilterAll})
	if len(got) != 4 || got[0].Body != "body A" || *got[0].Score != 7.2 || got[0].UserComment != "Like this but cheaper" || !got[0].IsWinner ||
		got[0].PremiseType != core.PremiseInitial || got[1].Score != nil || got[1].UserComment != "" ||
		got[3].Title != "Z" || got[3].RoundNumber != 3 {
		t.Errorf("got %+v", got)
	}
	if n, _ := s.CountRounds(ctx, sess.ID); n != 2 {
		t.Errorf("rounds got %d, want 2 (round 3 created)", n)
	}
}

func testToolCalls(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	calls := []core.ToolCall{
		{SessionID: sess.ID, ToolName: "decompose_problem", Input: json.RawMessage(`{"dimensions":["a"]}`), Output: json.RawMessage(`{"status":"ok"}`), Status: "ok", Iteration: 1, DurationMs: 2, CreatedAt: t0},
		{SessionID: sess.ID, ToolName: "generate_premise", Input: json.RawMessage(`not json`), Status: "error", ErrorCode: "GATES_NOT_SATISFIED", Iteration: 2, CreatedAt: t0.Add(time.Second)},
	}
	for _, c := range calls {
		if err := s.RecordToolCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListToolCalls(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ToolName != "decompose_problem" || got[1].ErrorCode != "GATES_NOT_SATISFIED" || got[1].Iteration != 2 {
		t.Fatalf("got %+v", got)
	}
	var in any
	if err := json.Unmarshal(got[1].Input, &in); err != nil || in != "not json" {
		t.Errorf("invalid input kept as %s (%v)", got[1].Input, err)
	}
	var out map[string]any
	json.Unmarshal(got[0].Output, &out)
	if out["status"] != "ok" {
		t.Errorf("output got %s", got[0].Output)
	}
}

func testCascade(t *testing.T, s *Store) {
	ctx := context.Background()
	keep := newSession(t, s, t0)
	gone := newSession(t, s, t0)
	for _, id := range []string{keep.ID, gone.ID} {
		saveRound(t, s, id, 1, "A", "B", "C")
		s.RecordToolCall(ctx, core.ToolCall{SessionID: id, ToolName: "x", Status: "ok"})
	}
	if err := s.DeleteSession(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, table := range []string{"rounds", "premises", "tool_calls"} {
		var n int
		if err := s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM `+table+` WHERE session_id = ?`), gone.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
		s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM `+table+` WHERE session_id = ?`), keep.ID).Scan(&n)
		if n == 0 {
			t.Errorf("%s of the other session deleted", table)
		}
	}
	if diff := cmp.Diff(map[string]int{"rounds": 0, "premises": 0, "tool_calls": 0}, counts); diff != "" {
		t.Errorf("left behind (-want +got):\n%s", diff)
	}
}

func testNotFound(t *testing.T, s *Store) {
	ctx := context.Background()
	missing := NewID()
	errs := map[string]error{
		"get":          func() error { _, err := s.GetSession(ctx, missing); return err }(),
		"get bad id":   func() error { _, err := s.GetSession(ctx, "not-a-uuid"); return err }(),
		"delete":       s.DeleteSession(ctx, missing),
		"status":       s.UpdateStatus(ctx, missing, core.StatusActive, nil),
		"progress":     s.SaveProgress(ctx, missing, core.Progress{}),
		"score":        s.UpdateScore(ctx, missing, core.ScoreUpdate{Title: "x"}),
		"score bad id": s.UpdateScore(ctx, newSession(t, s, t0).ID, core.ScoreUpdate{PremiseID: NewID()}),
		"winner":       s.MarkWinner(ctx, missing, NewID()),
	}
	for name, err := range errs {
		if !errors.Is(err, core.ErrNotFound) {
			t.Errorf("%s: got %v, want ErrNotFound", name, err)
		}
	}
}

func testConcurrent(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := newSession(t, s, t0)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			errs <- s.RecordToolCall(ctx, core.ToolCall{SessionID: sess.ID, ToolName: "t", Status: "ok", Iteration: i})
		}()
		go func() {
			defer wg.Done()
			errs <- s.SaveProgress(ctx, sess.ID, core.Progress{State: core.State{RoundNumber: i}, TotalTokens: int64(i)})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	calls, _ := s.ListToolCalls(ctx, sess.ID)
	if len(calls) != 20 {
		t.Errorf("got %d tool calls, want 20", len(calls))
	}
}
