package store

import (
	"context"
	"math"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

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

// Migration 005 keeps every row, makes the cost nullable, turns the $0 of
// successful unpriced calls into unknown, and reprices claude-haiku-4-5
// rows from $0.80 / $4 to $1 / $5.
func TestMigrationCostUnknown(t *testing.T) {
	ctx := context.Background()
	path, db := openMigratedUpTo(t, "004")
	haiku := (1000*0.80 + 100*4.00) / 1e6
	if _, err := db.Exec(`INSERT INTO api_call_log (id, call_type, model, latency_ms, input_tokens, output_tokens, cost_estimate, created_at) VALUES
		('a', 'observer_triage', 'claude-haiku-4-5-20251001', 100, 1000, 100, ?, '2026-11-01T00:00:00.000Z'),
		('b', 'coach_agent', 'my-finetune', 100, 1000, 100, 0, '2026-11-01T00:00:01.000Z'),
		('c', 'coach_agent', 'claude-sonnet-4-5-20250929', -1, 0, 0, 0, '2026-11-01T00:00:02.000Z'),
		('d', 'coach_agent', 'claude-sonnet-4-5-20250929', 100, 1000, 100, 0.0045, '2026-11-01T00:00:03.000Z'),
		('e', 'observer_triage', 'claude-haiku-4-5-preview', 100, 1000, 100, 0.5, '2026-11-01T00:00:04.000Z')`, haiku); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.APICalls(ctx, APICallFilter{}, 0)
	if err != nil || len(rows) != 5 {
		t.Fatalf("rows after migration: %d, %v", len(rows), err)
	}
	want := map[string]struct { // a: (1000×$1 + 100×$5) / 1e6
		cost    float64
		unknown bool
	}{"a": {0.0015, false}, "b": {0, true}, "c": {0, false}, "d": {0.0045, false}, "e": {0.5, false}}
	for _, r := range rows {
		w := want[r.ID]
		if math.Abs(r.CostEstimate-w.cost) > 1e-12 || r.CostUnknown != w.unknown {
			t.Errorf("row %s: cost %v unknown %v, want %v %v", r.ID, r.CostEstimate, r.CostUnknown, w.cost, w.unknown)
		}
	}
	if err := s.InsertAPICall(ctx, coach.APICall{CallType: "x", Model: "m", LatencyMs: 1, CostUnknown: true}); err != nil {
		t.Errorf("NULL cost after migration: %v", err)
	}
}
