package store

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/paige-dev/paige/internal/coach"
)

// Scenario 4.5, FR-045, SC-021: last N by session and type, chronological.
func TestRecentActions(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	sess, other := mustSession(t, s), mustSession(t, s)
	types := []coach.ActionType{coach.ActionFileOpen, coach.ActionFileSave, coach.ActionTabSwitch, coach.ActionFileSave, coach.ActionFileOpen}
	var all []coach.Action
	for i, typ := range types {
		a, err := s.InsertAction(ctx, sess.ID, typ, json.RawMessage(`{"i":`+string(rune('0'+i))+`}`))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, a)
		c.Advance(time.Second)
	}
	s.InsertAction(ctx, other.ID, coach.ActionFileOpen, nil)
	tests := []struct {
		name string
		q    ActionQuery
		want []coach.Action
	}{
		{"all", ActionQuery{SessionID: sess.ID}, all},
		{"last 2", ActionQuery{SessionID: sess.ID, Limit: 2}, all[3:]},
		{"saves", ActionQuery{SessionID: sess.ID, Types: []coach.ActionType{coach.ActionFileSave}}, []coach.Action{all[1], all[3]}},
		{"opens or tabs, last 2", ActionQuery{SessionID: sess.ID, Types: []coach.ActionType{coach.ActionFileOpen, coach.ActionTabSwitch}, Limit: 2},
			[]coach.Action{all[2], all[4]}},
		{"since", ActionQuery{SessionID: sess.ID, Since: t0.Add(3 * time.Second)}, all[3:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.RecentActions(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	last, err := s.LastAction(ctx, sess.ID, coach.ActionFileSave)
	if err != nil || last.ID != all[3].ID {
		t.Errorf("LastAction(file_save) = %v, %v; want %s", last.ID, err, all[3].ID)
	}
	if _, err := s.LastAction(ctx, sess.ID, coach.ActionIdleStart); !errors.Is(err, ErrNotFound) {
		t.Errorf("LastAction(none) = %v, want ErrNotFound", err)
	}
	if n, err := s.CountActions(ctx, sess.ID, coach.ActionFileOpen, time.Time{}); n != 2 || err != nil {
		t.Errorf("CountActions = %d, %v; want 2", n, err)
	}
	if n, _ := s.CountActions(ctx, "", coach.ActionFileOpen, time.Time{}); n != 3 {
		t.Errorf("CountActions(all sessions) = %d, want 3", n)
	}
	if _, err := s.RecentActions(ctx, ActionQuery{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("query without session = %v, want ErrInvalid", err)
	}
	if _, err := s.InsertAction(ctx, sess.ID, "nonsense", nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown type = %v, want ErrInvalid", err)
	}
}

// TestSessionTitleAndActionsStoreNoSecret covers the two text columns
// written from outside: sessions.issue_title and action_log.data, the
// latter both alone and in a batch transaction (the action queue's path).
func TestSessionTitleAndActionsStoreNoSecret(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, NewSession{ProjectDir: "/p", IssueTitle: "Rotate sk-ant-api03-abcdefghijkl leaked in CI"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Rotate [REDACTED:anthropic-key] leaked in CI"; sess.IssueTitle != want {
		t.Errorf("returned title %q, want %q", sess.IssueTitle, want)
	}
	a, err := s.InsertAction(ctx, sess.ID, coach.ActionMCPToolCall, json.RawMessage(`{"toolName":"x","token":"abcd1234efgh"}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(a.Data), "abcd1234efgh") {
		t.Errorf("returned data %s", a.Data)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		_, err := tx.InsertAction(ctx, sess.ID, coach.ActionCoachingMessage, json.RawMessage(`{"text":"the password is hunter22"}`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stored := strings.Join(column(t, s.DB(), `SELECT coalesce(issue_title, '') FROM sessions
		UNION ALL SELECT coalesce(data, '') FROM action_log`), "\n")
	for _, secret := range []string{"abcdefghijkl", "abcd1234efgh", "hunter22"} {
		if strings.Contains(stored, secret) {
			t.Errorf("stored %q:\n%s", secret, stored)
		}
	}
	if n := strings.Count(stored, "[REDACTED:"); n != 3 {
		t.Errorf("%d markers stored, want 3:\n%s", n, stored)
	}
}

// Every known action type is accepted (FR-048 + NOTES.md: 29).
func TestAllActionTypesInsertable(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sess := mustSession(t, s)
	if len(coach.ActionTypes) != 29 {
		t.Fatalf("%d action types, want 29", len(coach.ActionTypes))
	}
	for _, typ := range coach.ActionTypes {
		if _, err := s.InsertAction(ctx, sess.ID, typ, json.RawMessage(`{}`)); err != nil {
			t.Errorf("InsertAction(%s): %v", typ, err)
		}
	}
}

// Scenarios 4.4, 4.6, FR-046, SC-022, EC-19.
func TestAPICallStats(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	sess := mustSession(t, s)
	calls := []coach.APICall{
		{SessionID: sess.ID, CallType: "coach_agent", Model: "sonnet", InputHash: "h1", LatencyMs: 1000, InputTokens: 100, OutputTokens: 10, CostEstimate: 0.5},
		{SessionID: sess.ID, CallType: "triage", Model: "haiku", InputHash: "h2", LatencyMs: 200, InputTokens: 50, OutputTokens: 5, CostEstimate: 0.25},
		{SessionID: sess.ID, CallType: "triage", Model: "haiku", InputHash: "h3", LatencyMs: -1},
		{SessionID: sess.ID, CallType: "explain", Model: "sonnet", LatencyMs: 3000, CostEstimate: 1},
	}
	for i, call := range calls {
		if err := s.InsertAPICall(ctx, call); err != nil {
			t.Fatal(err)
		}
		calls[i].CreatedAt = c.Now()
		c.Advance(time.Minute)
	}
	rows, err := s.APICalls(ctx, APICallFilter{SessionID: sess.ID}, 0)
	if err != nil || len(rows) != 4 {
		t.Fatalf("APICalls = %d rows, %v; want 4", len(rows), err)
	}
	if diff := cmp.Diff(calls, rows, cmpopts.IgnoreFields(coach.APICall{}, "ID")); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// With a session id that does not exist: kept with a NULL session.
	c.Advance(time.Hour)
	if err := s.InsertAPICall(ctx, coach.APICall{SessionID: "gone", CallType: "learn", Model: "haiku", LatencyMs: 10, CostEstimate: 2}); err != nil {
		t.Errorf("unknown session call: %v", err)
	}
	late, _ := s.APICalls(ctx, APICallFilter{Since: t0.Add(time.Hour)}, 0)
	if len(late) != 1 || late[0].SessionID != "" || late[0].CallType != "learn" {
		t.Errorf("late calls = %+v, want the learn call without session", late)
	}
	if err := s.InsertAPICall(ctx, coach.APICall{CallType: "x"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("call without model = %v, want ErrInvalid", err)
	}
	got, err := s.APICallStats(ctx, APICallFilter{SessionID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := APICallStats{Calls: 4, Failures: 1, TotalCost: 1.75, InputTokens: 150, OutputTokens: 15, AvgLatencyMs: 1400,
		ByModel: []ModelStats{{Model: "haiku", Calls: 2, Cost: 0.25, AvgLatencyMs: 200}, {Model: "sonnet", Calls: 2, Cost: 1.5, AvgLatencyMs: 2000}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session stats (-want +got):\n%s", diff)
	}
	all, _ := s.APICallStats(ctx, APICallFilter{})
	if all.Calls != 5 || all.TotalCost != 3.75 {
		t.Errorf("global stats = %+v, want 5 calls, cost 3.75", all)
	}
	recent, _ := s.APICallStats(ctx, APICallFilter{Since: t0.Add(time.Hour)})
	if recent.Calls != 1 || recent.ByModel[0].Model != "haiku" {
		t.Errorf("stats since = %+v, want the one late call", recent)
	}
	empty, _ := s.APICallStats(ctx, APICallFilter{SessionID: "none"})
	if empty.Calls != 0 || empty.ByModel == nil {
		t.Errorf("empty stats = %+v, want zeros and empty ByModel", empty)
	}
}

// A call to a model without a known price is stored with a NULL cost, read
// back as unknown, and never summed as $0: the stats count it apart.
func TestUnpricedCallsAreUnknown(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sess := mustSession(t, s)
	for _, c := range []coach.APICall{
		{SessionID: sess.ID, CallType: "coach_agent", Model: "claude-sonnet-5-5", LatencyMs: 900, InputTokens: 1000, OutputTokens: 100, CostEstimate: 0.003},
		{SessionID: sess.ID, CallType: "coach_agent", Model: "my-finetune", LatencyMs: 800, InputTokens: 1000, OutputTokens: 100, CostUnknown: true},
		{SessionID: sess.ID, CallType: "coach_agent", Model: "my-finetune", LatencyMs: -1},
	} {
		if err := s.InsertAPICall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	var nulls int
	if err := s.DB().QueryRow(`SELECT count(*) FROM api_call_log WHERE cost_estimate IS NULL`).Scan(&nulls); err != nil || nulls != 1 {
		t.Fatalf("NULL costs: got %d, %v; want 1", nulls, err)
	}
	rows, err := s.APICalls(ctx, APICallFilter{SessionID: sess.ID}, 0)
	if err != nil || len(rows) != 3 || rows[0].CostUnknown || !rows[1].CostUnknown || rows[2].CostUnknown {
		t.Fatalf("rows: %+v, %v", rows, err)
	}
	st, err := s.APICallStats(ctx, APICallFilter{SessionID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	if st.Calls != 3 || st.UnpricedCalls != 1 || math.Abs(st.TotalCost-0.003) > 1e-12 {
		t.Errorf("stats: %+v, want 3 calls, 1 unpriced, $0.003 known", st)
	}
	if len(st.ByModel) != 2 || st.ByModel[1].Model != "my-finetune" || st.ByModel[1].UnpricedCalls != 1 || st.ByModel[0].UnpricedCalls != 0 {
		t.Errorf("by model: %+v", st.ByModel)
	}
}

// EC-07: concurrent writers on one Store (WAL + busy timeout) never drop a write.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sess := mustSession(t, s)
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				if w%2 == 0 {
					if _, err := s.InsertAction(ctx, sess.ID, coach.ActionSelection, nil); err != nil {
						t.Error(err)
					}
				} else if _, err := s.RecentActions(ctx, ActionQuery{SessionID: sess.ID, Limit: 20}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if n, _ := s.CountActions(ctx, sess.ID, coach.ActionSelection, time.Time{}); n != 75 {
		t.Errorf("%d actions, want 75", n)
	}
}

func BenchmarkInsertAction(b *testing.B) {
	ctx := context.Background()
	s, _ := newStore(b)
	sess := mustSession(b, s)
	data := json.RawMessage(`{"path":"src/a.ts"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.InsertAction(ctx, sess.ID, coach.ActionFileOpen, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecentActions20(b *testing.B) {
	ctx := context.Background()
	s, _ := newStore(b)
	sess := mustSession(b, s)
	for range 2000 {
		s.InsertAction(ctx, sess.ID, coach.ActionSelection, nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		if list, err := s.RecentActions(ctx, ActionQuery{SessionID: sess.ID, Limit: 20}); err != nil || len(list) != 20 {
			b.Fatal(len(list), err)
		}
	}
}
