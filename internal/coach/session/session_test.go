package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/coachtest"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/testenv"
)

type fixture struct {
	svc     *Service
	st      *store.Store
	logs    *testenv.SyncBuffer
	project string
}

// newFixture builds a Service over a real store, workspace guard and action
// log; batched selects the background writer.
func newFixture(t testing.TB, batched bool) *fixture {
	t.Helper()
	ctx := context.Background()
	env := coachtest.New(t, map[string]string{"src/": ""})
	project, st, ws, al := env.Project, env.Store, env.WS, env.Actions
	logs := &testenv.SyncBuffer{}
	opts := &Options{ProjectDir: project, Normalize: ws.Guard().Normalize, Log: slog.New(slog.NewTextHandler(logs, nil))}
	if batched {
		opts.Batch, opts.Bus = st, al.Bus()
	}
	svc, err := New(ctx, st, al, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(ctx) })
	return &fixture{svc: svc, st: st, logs: logs, project: project}
}

func (f *fixture) actions(t testing.TB, id string) []coach.ActionType {
	t.Helper()
	f.svc.Flush(context.Background())
	return coachtest.ActionTypes(t, f.st, store.ActionQuery{SessionID: id})
}

func TestLifecycle(t *testing.T) {
	for _, batched := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "batched"}[batched], func(t *testing.T) {
			f := newFixture(t, batched)
			ctx := context.Background()
			if _, err := f.svc.End(ctx); !errors.Is(err, ErrNoActiveSession) {
				t.Fatalf("End without session: %v", err)
			}
			n := 3
			a, err := f.svc.Start(ctx, StartInput{IssueNumber: &n, IssueTitle: "T"})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := f.svc.Active(); got.ID != a.ID || a.Status != coach.SessionActive || *a.IssueNumber != 3 {
				t.Fatalf("active = %+v", got)
			}
			f.svc.Log(ctx, coach.ActionFileOpen, map[string]any{"path": "a"})
			b, err := f.svc.Start(ctx, StartInput{}) // abandons a
			if err != nil {
				t.Fatal(err)
			}
			row, _ := f.st.Session(ctx, a.ID)
			if row.Status != coach.SessionAbandoned || row.EndedAt == nil {
				t.Errorf("a = %+v", row)
			}
			if _, err := f.svc.Resume(ctx, "missing"); !errors.Is(err, ErrNotFound) {
				t.Errorf("resume missing: %v", err)
			}
			r, err := f.svc.Resume(ctx, a.ID) // abandons b, reactivates a
			if err != nil || r.Status != coach.SessionActive || r.EndedAt != nil {
				t.Fatalf("resume = %+v, %v", r, err)
			}
			done, err := f.svc.End(ctx)
			if err != nil || done.Status != coach.SessionCompleted || done.EndedAt == nil {
				t.Fatalf("end = %+v, %v", done, err)
			}
			if _, ok := f.svc.Active(); ok {
				t.Error("still active after End")
			}
			wantA := []coach.ActionType{coach.ActionSessionStarted, coach.ActionFileOpen, coach.ActionSessionEnded,
				coach.ActionSessionResumed, coach.ActionSessionEnded}
			if diff := cmp.Diff(wantA, f.actions(t, a.ID)); diff != "" {
				t.Errorf("actions of a (-want +got):\n%s", diff)
			}
			wantB := []coach.ActionType{coach.ActionSessionStarted, coach.ActionSessionEnded}
			if diff := cmp.Diff(wantB, f.actions(t, b.ID)); diff != "" {
				t.Errorf("actions of b (-want +got):\n%s", diff)
			}
		})
	}
}

// A restarted server picks up the session left active in the database.
func TestNewRestoresActiveSession(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	again, err := New(ctx, f.st, actionlog.New(f.st, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.ActiveID(); got != s.ID {
		t.Errorf("restored %q, want %q", got, s.ID)
	}
}

// EC-17: without a session nothing is written; one warning per type.
func TestLogWithoutSession(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	for range 3 {
		if err := f.svc.Log(ctx, coach.ActionMCPToolCall, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(f.logs.String(), "no active session"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, f.logs.String())
	}
}

// dashboard_loaded is the one action stored without a session (issue 13):
// batched or not, it is committed with a NULL session when none is active,
// and against the session once one is; other types are still discarded.
func TestLogSessionlessAction(t *testing.T) {
	for _, batched := range []bool{false, true} {
		t.Run(fmt.Sprintf("batched=%v", batched), func(t *testing.T) {
			f := newFixture(t, batched)
			ctx := context.Background()
			if err := f.svc.Log(ctx, coach.ActionDashboardLoaded, map[string]any{"statsPeriod": "all"}); err != nil {
				t.Fatal(err)
			}
			if err := f.svc.Log(ctx, coach.ActionFileOpen, map[string]any{"path": "a.ts"}); err != nil {
				t.Fatal(err)
			}
			if n, err := f.st.CountActions(ctx, "", coach.ActionDashboardLoaded, time.Time{}); err != nil || n != 1 {
				t.Fatalf("dashboard_loaded rows without a session = %d (%v), want 1", n, err)
			}
			if n, _ := f.st.CountActions(ctx, "", coach.ActionFileOpen, time.Time{}); n != 0 {
				t.Errorf("file_open without a session was stored (%d rows)", n)
			}
			s, _ := f.svc.Start(ctx, StartInput{})
			if err := f.svc.Log(ctx, coach.ActionDashboardLoaded, nil); err != nil {
				t.Fatal(err)
			}
			if n, _ := f.st.CountActions(ctx, s.ID, coach.ActionDashboardLoaded, time.Time{}); n != 1 {
				t.Errorf("dashboard_loaded of the active session = %d rows, want 1", n)
			}
		})
	}
}

// Queued actions keep their order, many per transaction, and reach the bus.
func TestBatchedOrder(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	sub := f.svc.queue.bus.(*actionlog.Bus).Subscribe(2000)
	defer sub.Unsubscribe()
	const n = 1000
	var last *Pending
	for i := range n {
		typ := coach.ActionTabSwitch
		if i%2 == 1 {
			typ = coach.ActionSelection
		}
		last = f.svc.Submit(ctx, typ, map[string]int{"i": i})
	}
	if err := last.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	got := f.actions(t, s.ID)
	if len(got) != n+1 {
		t.Fatalf("stored %d actions, want %d", len(got), n+1)
	}
	for i, a := range got[1:] {
		want := coach.ActionTabSwitch
		if i%2 == 1 {
			want = coach.ActionSelection
		}
		if a != want {
			t.Fatalf("action %d = %s, want %s", i, a, want)
		}
	}
	seen := 0
	timeout := time.After(5 * time.Second)
	for seen < n {
		select {
		case <-sub.C():
			seen++
		case <-timeout:
			t.Fatalf("bus delivered %d of %d events", seen, n)
		}
	}
}

// A batch that fails (a row for a session deleted meanwhile) is retried row
// by row: the good rows are kept.
func TestBatchFallback(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	q := f.svc.queue
	good, _ := f.st.CreateSession(ctx, store.NewSession{ProjectDir: f.project})
	p := func() *Pending { return &Pending{done: make(chan struct{})} }
	q.write([]queued{
		{sessionID: good.ID, t: coach.ActionIdleStart, p: p()},
		{sessionID: "no-such-session", t: coach.ActionIdleEnd, p: p()},
		{sessionID: good.ID, t: coach.ActionIdleEnd, p: p()},
	})
	if diff := cmp.Diff([]coach.ActionType{coach.ActionIdleStart, coach.ActionIdleEnd}, f.actions(t, good.ID)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(f.logs.String(), "cannot log action") {
		t.Errorf("bad row not reported:\n%s", f.logs.String())
	}
}

func TestOpenFilesAndHighlights(t *testing.T) {
	f := newFixture(t, false)
	for _, p := range []string{"src/a.ts", filepath.Join(f.project, "src/a.ts"), "./src/b.ts"} {
		if _, err := f.svc.OpenFile(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.OpenFile("../outside"); err == nil {
		t.Error("outside path opened")
	}
	if diff := cmp.Diff([]string{"src/a.ts", "src/b.ts"}, f.svc.OpenFiles()); diff != "" {
		t.Errorf("open files (-want +got):\n%s", diff)
	}
	f.svc.CloseFile(filepath.Join(f.project, "src", "a.ts"))
	f.svc.CloseFile("never-open.ts")
	if diff := cmp.Diff([]string{"src/b.ts"}, f.svc.OpenFiles()); diff != "" {
		t.Errorf("after close (-want +got):\n%s", diff)
	}
	f.svc.AddHighlight(Highlight{Path: "src/a.ts", Start: 1, End: 2, Style: "hint"})
	_, n, _ := f.svc.AddHighlight(Highlight{Path: "./src/a.ts", Start: 4, End: 4, Style: "hint"})
	f.svc.AddHighlight(Highlight{Path: "src/b.ts", Start: 1, End: 1, Style: "info"})
	if n != 2 {
		t.Errorf("count = %d, want 2", n)
	}
	f.svc.ClearHighlights("src/a.ts")
	if hs := f.svc.Highlights(); len(hs) != 1 || len(hs["src/b.ts"]) != 1 {
		t.Errorf("highlights = %+v", hs)
	}
	f.svc.AddHints([]Hint{{Path: "src/a.ts", Style: "suggested"}, {Path: "src/b.ts", Style: "suggested"}})
	f.svc.AddHints([]Hint{{Path: "./src/a.ts", Style: "focus"}})
	want := []Hint{{Path: "src/b.ts", Style: "suggested"}, {Path: "src/a.ts", Style: "focus"}}
	if diff := cmp.Diff(want, f.svc.Hints()); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
	// A new session clears highlights and hints; open files are editor state.
	f.svc.Start(context.Background(), StartInput{})
	if len(f.svc.Highlights()) != 0 || len(f.svc.Hints()) != 0 || len(f.svc.OpenFiles()) != 1 {
		t.Errorf("after start: %v %v %v", f.svc.Highlights(), f.svc.Hints(), f.svc.OpenFiles())
	}
}

func TestCurrentPhase(t *testing.T) {
	ph := func(n int, s coach.PhaseStatus) coach.Phase { return coach.Phase{Number: n, Status: s} }
	tests := []struct {
		name   string
		phases []coach.Phase
		want   int
		ok     bool
	}{
		{"none", nil, 0, false},
		{"active wins", []coach.Phase{ph(1, coach.PhaseComplete), ph(2, coach.PhasePending), ph(3, coach.PhaseActive)}, 3, true},
		{"first pending", []coach.Phase{ph(1, coach.PhaseComplete), ph(2, coach.PhasePending), ph(3, coach.PhasePending)}, 2, true},
		{"all complete", []coach.Phase{ph(1, coach.PhaseComplete), ph(2, coach.PhaseComplete)}, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CurrentPhase(tt.phases)
			if ok != tt.ok || got.Number != tt.want {
				t.Errorf("got %d,%v, want %d,%v", got.Number, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestUpdatePhase(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	if _, _, err := f.svc.UpdatePhase(ctx, 1, coach.PhaseActive); !errors.Is(err, ErrNoActiveSession) {
		t.Fatalf("no session: %v", err)
	}
	s, _ := f.svc.Start(ctx, StartInput{})
	if _, _, err := f.svc.UpdatePhase(ctx, 1, coach.PhaseActive); !errors.Is(err, ErrPhaseNotFound) {
		t.Fatalf("no plan: %v", err) // EC-31
	}
	plan, _ := f.st.CreatePlan(ctx, s.ID, "p")
	f.st.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "one"})
	ph, changed, err := f.svc.UpdatePhase(ctx, 1, coach.PhaseActive)
	if err != nil || !changed || ph.Status != coach.PhaseActive || ph.StartedAt == nil {
		t.Fatalf("activate: %+v %v %v", ph, changed, err)
	}
	if _, changed, _ := f.svc.UpdatePhase(ctx, 1, coach.PhaseActive); changed { // EC-32
		t.Error("same status changed")
	}
	if _, _, err := f.svc.UpdatePhase(ctx, 1, "done"); err == nil {
		t.Error("bad status accepted")
	}
	ph, _, _ = f.svc.UpdatePhase(ctx, 1, coach.PhaseComplete)
	if ph.CompletedAt == nil {
		t.Errorf("complete: %+v", ph)
	}
	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionPhaseStarted, coach.ActionPhaseCompleted}
	if diff := cmp.Diff(want, f.actions(t, s.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

func TestDuration(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	end := start.Add(90 * time.Second)
	if got := Duration(coach.Session{StartedAt: start, EndedAt: &end}); got != 90*time.Second {
		t.Errorf("got %v, want 90s", got)
	}
	if got := Duration(coach.Session{StartedAt: start}); got != 0 {
		t.Errorf("active: got %v, want 0", got)
	}
}

// Subscribers see every lifecycle change in order (the Observer's hook).
func TestSubscribe(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	var got []string
	f.svc.Subscribe(func(_ context.Context, e Event) { got = append(got, string(e.Kind)+":"+string(e.Session.Status)) })
	a, _ := f.svc.Start(ctx, StartInput{})
	f.svc.Start(ctx, StartInput{})
	f.svc.Resume(ctx, a.ID)
	f.svc.End(ctx)
	want := []string{"started:active", "ended:abandoned", "started:active", "ended:abandoned", "resumed:active", "ended:completed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// After Close, Log still stores actions (synchronously): stragglers at
// shutdown lose nothing and do not panic.
func TestLogAfterClose(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	f.svc.Log(ctx, coach.ActionIdleStart, nil)
	if err := f.svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Log(ctx, coach.ActionIdleEnd, nil); err != nil {
		t.Fatal(err)
	}
	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionIdleStart, coach.ActionIdleEnd}
	if diff := cmp.Diff(want, f.actions(t, s.ID)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
