package actionlog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

var _ Store = (*store.Store)(nil)

// fakeTicker is a Ticker the test drives; sends block until the summary
// loop receives, so a second send proves the first flush finished.
type fakeTicker struct {
	c       chan time.Time
	stopped atomic.Bool
}

func (f *fakeTicker) C() <-chan time.Time { return f.c }
func (f *fakeTicker) Stop()               { f.stopped.Store(true) }

type fixture struct {
	st      *store.Store
	l       *Logger
	logs    *testenv.SyncBuffer
	tickers chan *fakeTicker
	sess    coach.Session
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	f := &fixture{st: st, logs: &testenv.SyncBuffer{}, tickers: make(chan *fakeTicker, 8)}
	f.l = New(st, &Options{
		Logger: slog.New(slog.NewTextHandler(f.logs, nil)),
		NewTicker: func(d time.Duration) Ticker {
			if d != DefaultSummaryInterval {
				tb.Errorf("ticker interval = %v, want %v", d, DefaultSummaryInterval)
			}
			t := &fakeTicker{c: make(chan time.Time)}
			f.tickers <- t
			return t
		},
	})
	tb.Cleanup(func() { f.l.Close(context.Background()) })
	if f.sess, err = st.CreateSession(ctx, store.NewSession{ProjectDir: "/p"}); err != nil {
		tb.Fatal(err)
	}
	return f
}

// start logs session_started, which activates the session, and returns its ticker.
func (f *fixture) start(tb testing.TB) *fakeTicker {
	tb.Helper()
	if err := f.l.LogSession(context.Background(), f.sess.ID, coach.ActionSessionStarted, map[string]any{"issueNumber": 7}); err != nil {
		tb.Fatal(err)
	}
	select {
	case t := <-f.tickers:
		return t
	case <-time.After(time.Second):
		tb.Fatal("no ticker started")
		return nil
	}
}

func (f *fixture) actions(tb testing.TB, types ...coach.ActionType) []coach.Action {
	tb.Helper()
	list, err := f.st.RecentActions(context.Background(), store.ActionQuery{SessionID: f.sess.ID, Types: types})
	if err != nil {
		tb.Fatal(err)
	}
	return list
}

func dataOf(tb testing.TB, a coach.Action) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.Data, &m); err != nil {
		tb.Fatalf("data of %s: %v", a.Type, err)
	}
	return m
}

// Scenario 4.1, SC-017: the row is written and the event published.
func TestLogAction(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sub := f.l.Bus().Subscribe(16)
	f.start(t)
	if got := f.l.Session(); got != f.sess.ID {
		t.Fatalf("Session() = %q, want %q", got, f.sess.ID)
	}
	if err := f.l.Log(ctx, coach.ActionFileOpen, map[string]string{"path": "src/a.ts"}); err != nil {
		t.Fatal(err)
	}
	if err := f.l.Log(ctx, coach.ActionIdleEnd, nil); err != nil {
		t.Fatal(err)
	}
	list := f.actions(t)
	if len(list) != 3 {
		t.Fatalf("%d actions, want 3 (session_started, file_open, idle_end)", len(list))
	}
	open := list[1]
	if open.Type != coach.ActionFileOpen || open.SessionID != f.sess.ID || string(open.Data) != `{"path":"src/a.ts"}` || open.CreatedAt.IsZero() {
		t.Errorf("file_open row = %+v", open)
	}
	if list[2].Data != nil {
		t.Errorf("idle_end data = %s, want NULL", list[2].Data)
	}
	var got []coach.ActionType
	for range 3 {
		e := <-sub.C()
		got = append(got, e.Type)
		if e.ActionID == "" || e.SessionID != f.sess.ID {
			t.Errorf("event %+v lacks action id or session", e)
		}
	}
	if diff := cmp.Diff([]coach.ActionType{coach.ActionSessionStarted, coach.ActionFileOpen, coach.ActionIdleEnd}, got); diff != "" {
		t.Errorf("published (-want +got):\n%s", diff)
	}
	if err := f.l.Log(ctx, "made_up", nil); err == nil {
		t.Error("unknown action type accepted")
	}
}

// EC-17: no active session → warning, nothing written, no error.
func TestLogWithoutSession(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.l.Log(ctx, coach.ActionFileOpen, map[string]string{"path": "a"}); err != nil {
		t.Fatalf("Log without session = %v, want nil", err)
	}
	if err := f.l.LogSession(ctx, "", coach.ActionTabSwitch, nil); err != nil {
		t.Fatalf("LogSession(\"\") = %v, want nil", err)
	}
	for range 3 {
		f.l.ObserveBuffer(ctx, "a.ts", 10, 5000)
	}
	if n := len(f.actions(t)); n != 0 {
		t.Errorf("%d rows written without a session, want 0", n)
	}
	logs := f.logs.String()
	if strings.Count(logs, "no active session") != 3 { // two actions + one buffer warning, not three
		t.Errorf("warnings:\n%s\nwant 3 mentioning no active session", logs)
	}
}

// Scenarios 4.2, 4.7, SC-018: summaries per edited file on each tick,
// nothing when nothing was edited.
func TestBufferSummaries(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tick := f.start(t)
	tick.c <- time.Now() // nothing edited yet
	tick.c <- time.Now() // proves the first flush finished
	if n := len(f.actions(t, coach.ActionBufferSummary)); n != 0 {
		t.Fatalf("%d summaries with no edits, want 0", n)
	}
	f.l.ObserveBuffer(ctx, "src/a.ts", 100, 101)
	f.l.ObserveBuffer(ctx, "src/a.ts", 101, 102)
	f.l.ObserveBuffer(ctx, "src/b.ts", -1, 10)
	tick.c <- time.Now()
	tick.c <- time.Now()
	got := f.actions(t, coach.ActionBufferSummary)
	if len(got) != 2 {
		t.Fatalf("%d summaries, want 2", len(got))
	}
	want := []map[string]any{
		{"path": "src/a.ts", "editCount": 2.0, "charDelta": 2.0, "charCount": 102.0},
		{"path": "src/b.ts", "editCount": 1.0, "charDelta": 0.0, "charCount": 10.0},
	}
	if diff := cmp.Diff(want, []map[string]any{dataOf(t, got[0]), dataOf(t, got[1])}); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
	tick.c <- time.Now()
	tick.c <- time.Now()
	if n := len(f.actions(t, coach.ActionBufferSummary)); n != 2 {
		t.Errorf("%d summaries after idle ticks, want still 2", n)
	}
}

// Scenario 4.3, SC-019: an immediate log on a large change.
func TestBufferSignificantChange(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sub := f.l.Bus().Subscribe(64)
	f.start(t)
	for _, n := range []int{1001, 1002, 1500} {
		if err := f.l.ObserveBuffer(ctx, "a.ts", n-1, n); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.actions(t, coach.ActionBufferSignificantChange)); n != 0 {
		t.Fatalf("%d significant changes for small edits, want 0", n)
	}
	f.l.ObserveBuffer(ctx, "a.ts", 1500, 3000)
	got := f.actions(t, coach.ActionBufferSignificantChange)
	if len(got) != 1 {
		t.Fatalf("%d significant changes, want 1", len(got))
	}
	want := map[string]any{"path": "a.ts", "previousCharCount": 1000.0, "newCharCount": 3000.0, "delta": 2000.0}
	if diff := cmp.Diff(want, dataOf(t, got[0])); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	updates := 0
	for len(sub.C()) > 0 {
		if e := <-sub.C(); e.Type == EventBufferUpdate {
			updates++
			if e.Path != "a.ts" || e.SessionID != f.sess.ID {
				t.Errorf("buffer event %+v", e)
			}
		}
	}
	if updates != 4 {
		t.Errorf("%d buffer_update events, want 4", updates)
	}
}

// BenchmarkBufferUpdate is the whole buffer:update ingestion path after
// decoding: buffer cache update, buffer log state, significant-change check
// (with the occasional database write it triggers), and the bus event an
// Observer subscriber drains. Target: ≥ 20,000 messages/s.
func BenchmarkBufferUpdate(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	root := b.TempDir()
	files := []string{"src/a.ts", "src/b.ts", "./src/c.ts", "lib/d.ts"}
	for _, p := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(strings.Repeat("x", 3000)), 0o644)
	}
	ws, err := workspace.New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	sub := f.l.Bus().Subscribe(1024)
	go func() {
		for range sub.C() {
		}
	}()
	defer sub.Unsubscribe()
	f.start(b)
	content := strings.Repeat("const value = compute(input);\n", 200) // 6,000 chars
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Typing: the length drifts by a few characters, with a jump (paste)
		// every 1,000 updates that logs a significant change.
		n := 3000 + i%40
		if i%1000 == 999 {
			n = 6000
		}
		ch, err := ws.UpdateBuffer(files[i%len(files)], content[:n], workspace.Cursor{Line: i % 200, Column: i % 30})
		if err != nil {
			b.Fatal(err)
		}
		if err := f.l.ObserveBuffer(ctx, ch.Path, ch.PrevCharCount, ch.CharCount); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// The first-update baseline end to end: the workspace reports the file's
// size on disk as the previous count, so a paste into a freshly opened file
// is significant at once, while the first keystroke in a new file is not.
func TestBaselineFromWorkspace(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "small.ts"), []byte("const a = 1;\n"), 0o644)
	ws, err := workspace.New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.start(t)
	for _, u := range []struct{ path, content string }{
		{"small.ts", "const a = 1;\n" + strings.Repeat("// pasted\n", 100)},
		{"new.ts", strings.Repeat("x", 2000)},
	} {
		ch, err := ws.UpdateBuffer(u.path, u.content, workspace.Cursor{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.l.ObserveBuffer(ctx, ch.Path, ch.PrevCharCount, ch.CharCount); err != nil {
			t.Fatal(err)
		}
	}
	got := f.actions(t, "buffer_significant_change")
	if len(got) != 1 {
		t.Fatalf("%d significant changes, want 1 (the paste)", len(got))
	}
	if d := dataOf(t, got[0]); d["path"] != "small.ts" || d["previousCharCount"] != 13.0 || d["newCharCount"] != 1013.0 {
		t.Errorf("significant change = %v, want small.ts 13 → 1013", d)
	}
}

// Scenario 4.8, FR-047: logging session_ended flushes pending summaries,
// stops the ticker and clears the session; later updates are not logged.
func TestSessionEndClearsTimer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tick := f.start(t)
	f.l.ObserveBuffer(ctx, "a.ts", 10, 11)
	if err := f.l.LogSession(ctx, f.sess.ID, coach.ActionSessionEnded, map[string]any{"status": "completed"}); err != nil {
		t.Fatal(err)
	}
	if !tick.stopped.Load() {
		t.Error("ticker not stopped")
	}
	if f.l.Session() != "" {
		t.Errorf("Session() = %q after end, want empty", f.l.Session())
	}
	var types []coach.ActionType
	for _, a := range f.actions(t) {
		types = append(types, a.Type)
	}
	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionBufferSummary, coach.ActionSessionEnded}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
	f.l.ObserveBuffer(ctx, "a.ts", 11, 5000)
	if n := len(f.actions(t)); n != 3 {
		t.Errorf("%d rows after end, want 3", n)
	}
	// Resuming starts a fresh ticker.
	if err := f.l.LogSession(ctx, f.sess.ID, coach.ActionSessionResumed, nil); err != nil {
		t.Fatal(err)
	}
	if tk := <-f.tickers; tk.stopped.Load() {
		t.Error("resumed ticker already stopped")
	}
}

// EC-18: Close flushes and stops the ticker; it is idempotent.
func TestCloseStopsTimer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tick := f.start(t)
	f.l.ObserveBuffer(ctx, "a.ts", 10, 11)
	f.l.Close(ctx)
	f.l.Close(ctx)
	if !tick.stopped.Load() {
		t.Error("ticker not stopped by Close")
	}
	if n := len(f.actions(t, coach.ActionBufferSummary)); n != 1 {
		t.Errorf("%d summaries flushed at Close, want 1", n)
	}
}

// Starting another session ends the first one's bookkeeping.
func TestStartSessionSwitches(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	first := f.start(t)
	other, err := f.st.CreateSession(ctx, store.NewSession{ProjectDir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	f.l.StartSession(ctx, other.ID)
	if !first.stopped.Load() || f.l.Session() != other.ID {
		t.Errorf("first ticker stopped %v, session %q; want stopped and %q", first.stopped.Load(), f.l.Session(), other.ID)
	}
	f.l.StartSession(ctx, other.ID) // no-op
	select {
	case <-f.tickers:
	default:
		t.Fatal("no ticker for the second session")
	}
	select {
	case <-f.tickers:
		t.Error("restarting the active session started another ticker")
	default:
	}
}

// Scenario 4.4, SC-020, EC-19.
func TestRecordAPICall(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	calls := []coach.APICall{
		{SessionID: f.sess.ID, CallType: "coach_agent", Model: "claude-sonnet", InputHash: "abcd", LatencyMs: 1200, InputTokens: 1000, OutputTokens: 200, CostEstimate: 0.006},
		{SessionID: f.sess.ID, CallType: "observer_triage", Model: "claude-haiku", InputHash: "ef01", LatencyMs: -1},
		{CallType: "explain", Model: "claude-sonnet", LatencyMs: 300},
	}
	for _, c := range calls {
		if err := f.l.RecordAPICall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	st, err := f.st.APICallStats(ctx, store.APICallFilter{SessionID: f.sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	if st.Calls != 2 || st.Failures != 1 || st.TotalCost != 0.006 || st.AvgLatencyMs != 1200 {
		t.Errorf("session stats = %+v, want 2 calls, 1 failure, cost 0.006, avg 1200", st)
	}
	if err := f.l.RecordAPICall(ctx, coach.APICall{}); err == nil {
		t.Error("API call without type and model accepted")
	}
}

// The llm.CallLogger seam: a record maps onto the spec's columns.
func TestLogAPICallFromLLM(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	at := time.Date(2026, 2, 11, 12, 0, 0, 0, time.UTC)
	recs := []llm.CallRecord{
		{SessionID: f.sess.ID, CallType: "coach_agent", Model: "claude-sonnet-4-5", InputHash: "0123456789abcdef",
			LatencyMs: 850, InputTokens: 1200, OutputTokens: 300, CostUSD: 0.0081, At: at},
		{CallType: "learn_extract", Model: "claude-haiku-4-5", InputHash: "fedcba9876543210", LatencyMs: -1,
			Err: errors.New("529 overloaded"), At: at.Add(time.Second)},
		{CallType: "coach_agent", Model: "my-finetune", LatencyMs: 10, InputTokens: 5, CostUnknown: true, At: at.Add(2 * time.Second)},
	}
	for _, r := range recs {
		if err := f.l.LogAPICall(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := f.st.APICalls(ctx, store.APICallFilter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []coach.APICall{
		{SessionID: f.sess.ID, CallType: "coach_agent", Model: "claude-sonnet-4-5", InputHash: "0123456789abcdef",
			LatencyMs: 850, InputTokens: 1200, OutputTokens: 300, CostEstimate: 0.0081, CreatedAt: at},
		{CallType: "learn_extract", Model: "claude-haiku-4-5", InputHash: "fedcba9876543210", LatencyMs: -1, CreatedAt: at.Add(time.Second)},
		{CallType: "coach_agent", Model: "my-finetune", LatencyMs: 10, InputTokens: 5, CostUnknown: true, CreatedAt: at.Add(2 * time.Second)},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(coach.APICall{}, "ID")); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestNoSecretStored: an action payload's secrets are neither in action_log
// nor in the published event, and a Claude call whose prompt holds a secret
// leaves none in api_call_log (it stores a hash of the prompt, no text).
func TestNoSecretStored(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.start(t)
	sub := f.l.Bus().Subscribe(8)
	data := map[string]any{"path": "deploy.sh", "password": "hunter22", "error": "export API_KEY=zq8vn3kd7x1 failed"}
	if err := f.l.Log(ctx, coach.ActionExplainCompleted, data); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-sub.C():
		if s := string(e.Data); strings.Contains(s, "hunter22") || strings.Contains(s, "zq8vn3kd7x1") || !strings.Contains(s, `"path":"deploy.sh"`) {
			t.Errorf("published data %s", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}

	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text(`{"ok":true}`))
	c := llm.New(llm.Options{APIKey: "k", BaseURL: srv.URL(), Log: f.l})
	type reply struct {
		OK bool `json:"ok"`
	}
	if _, _, err := llm.Call[reply](ctx, c, llm.Request{CallType: "coach_agent", SessionID: f.sess.ID,
		User: "Review this: const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123'"}); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"action_log", "api_call_log"} {
		rows := dumpTable(t, f.st.DB(), table)
		if rows == "" {
			t.Errorf("%s is empty", table)
		}
		for _, secret := range []string{"hunter22", "zq8vn3kd7x1", "ghp_abcdefghijklmnopqrstuvwxyz0123"} {
			if strings.Contains(rows, secret) {
				t.Errorf("%s stores %q:\n%s", table, secret, rows)
			}
		}
	}
}

// dumpTable returns every cell of table as text, one row a line.
func dumpTable(tb testing.TB, db *sql.DB, table string) string {
	tb.Helper()
	rows, err := db.Query(`SELECT * FROM ` + table)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for _, c := range cells {
			fmt.Fprintf(&b, "%s\t", c)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The real ticker path: with the default interval, summaries appear on
// their own. The test runs in a synctest bubble, so the interval passes on
// the fake clock at once instead of being shortened and waited for.
func TestRealTickerFlushes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st, err := store.Open(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		sess, _ := st.CreateSession(ctx, store.NewSession{ProjectDir: "/p"})
		l := New(st, nil)
		defer l.Close(ctx)
		sub := l.Bus().Subscribe(64)
		l.StartSession(ctx, sess.ID)
		start := time.Now()
		l.ObserveBuffer(ctx, "a.ts", 3, 4)
		for e := range sub.C() {
			if e.Type == coach.ActionBufferSummary {
				break
			}
		}
		if waited := time.Since(start); waited < DefaultSummaryInterval {
			t.Errorf("buffer_summary after %v, before the %v interval", waited, DefaultSummaryInterval)
		}
	})
}
