package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// env is one GhostPath API on a real HTTP server, with a real SQLite store
// and the real SDK talking to llmtest.
type env struct {
	t       testing.TB
	fake    *llmtest.Server
	dbPath  string
	specDir string
	repo    *store.Store
	api     *API
	srv     *httptest.Server
	logs    *testenv.SyncBuffer // error logs of the API and runner
	pgURL   string              // non-empty: PostgreSQL instead of SQLite
	timeout time.Duration       // per model call; zero: the agent client's default
	grace   time.Duration       // Options.DisconnectGrace; zero: the default
	now     func() time.Time    // Options.Now; nil: the default
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvOn(t, "")
}

// newEnvOn is newEnv on PostgreSQL when pgURL is set.
func newEnvOn(t testing.TB, pgURL string) *env {
	t.Helper()
	return newEnvWith(t, func(e *env) { e.pgURL = pgURL })
}

// both runs f on an env on SQLite and on one on PostgreSQL.
func both(t *testing.T, f func(t *testing.T, e *env)) {
	t.Run("sqlite", func(t *testing.T) { f(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, newEnvOn(t, ideatetest.PostgresURL(t))) })
}

// newEnvWith is newEnv with fields set by configure before the start.
func newEnvWith(t testing.TB, configure func(*env)) *env {
	t.Helper()
	e := &env{t: t, logs: &testenv.SyncBuffer{}, fake: llmtest.NewServer(t), dbPath: filepath.Join(t.TempDir(), store.FileName),
		specDir: t.TempDir()}
	configure(e)
	e.start()
	t.Cleanup(e.stop)
	return e
}

// start opens the store and serves a new API (again after stop: a restart).
func (e *env) start() {
	e.t.Helper()
	repo, err := store.OpenSQLite(context.Background(), e.dbPath)
	if e.pgURL != "" {
		repo, err = store.OpenPostgres(context.Background(), e.pgURL)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	sdk := llm.New(llm.Options{APIKey: "test-key", BaseURL: e.fake.URL()}).SDK()
	client := agent.NewClient(&sdk.Messages, &agent.ClientOptions{Timeout: e.timeout,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelError}))
	runner := agent.NewRunner(client, repo, &agent.Options{SpecDir: e.specDir, Logger: log})
	e.repo = repo
	e.api = New(Options{Repo: repo, Runner: runner, Heartbeat: 50 * time.Millisecond, DisconnectGrace: e.grace, Logger: log, Now: e.now})
	e.srv = httptest.NewServer(e.api.Handler())
}

func (e *env) stop() {
	if e.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.api.Close(ctx); err != nil {
		e.t.Errorf("close api: %v", err)
	}
	e.srv.Close()
	e.repo.Close()
	e.srv = nil
}

func (e *env) do(method, path string, body any) *http.Response {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// json sends a request and decodes the JSON answer, checking the status.
func (e *env) json(method, path string, body any, wantStatus int) map[string]any {
	e.t.Helper()
	resp := e.do(method, path, body)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus {
		e.t.Fatalf("%s %s: got %d %s, want %d", method, path, resp.StatusCode, raw, wantStatus)
	}
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			e.t.Fatalf("%s %s: not JSON: %s", method, path, raw)
		}
	}
	return out
}

func (e *env) create(problem string) string {
	e.t.Helper()
	return e.json("POST", "/api/v1/sessions", map[string]any{"problem": problem}, 201)["id"].(string)
}

// sseEvent is one decoded data line.
type sseEvent struct {
	Type core.EventType  `json:"type"`
	Data json.RawMessage `json:"data"`
}

// readSSE reads a text/event-stream body to its end.
func readSSE(tb testing.TB, resp *http.Response) []sseEvent {
	tb.Helper()
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		raw, _ := io.ReadAll(resp.Body)
		tb.Fatalf("stream: got %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	var out []sseEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev sseEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			tb.Fatalf("bad SSE data %q: %v", data, err)
		}
		out = append(out, ev)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read stream: %v", err)
	}
	return out
}

func (e *env) stream(id string) []sseEvent {
	e.t.Helper()
	return readSSE(e.t, e.do("GET", "/api/v1/sessions/"+id+"/stream", nil))
}

func (e *env) input(id string, body any) []sseEvent {
	e.t.Helper()
	return readSSE(e.t, e.do("POST", "/api/v1/sessions/"+id+"/user-input", body))
}

func evTypes(evs []sseEvent) []core.EventType {
	var out []core.EventType
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func find(evs []sseEvent, t core.EventType) (sseEvent, bool) {
	for _, e := range evs {
		if e.Type == t {
			return e, true
		}
	}
	return sseEvent{}, false
}

func doneOf(tb testing.TB, evs []sseEvent) core.DoneData {
	tb.Helper()
	if len(evs) == 0 || evs[len(evs)-1].Type != core.EventDone {
		tb.Fatalf("stream does not end with done: %v", evTypes(evs))
	}
	var d core.DoneData
	json.Unmarshal(evs[len(evs)-1].Data, &d)
	return d
}

func premisesOf(tb testing.TB, evs []sseEvent) []core.PremiseView {
	tb.Helper()
	ev, ok := find(evs, core.EventPremises)
	if !ok {
		tb.Fatalf("no premises event in %v", evTypes(evs))
	}
	var ps []core.PremiseView
	json.Unmarshal(ev.Data, &ps)
	return ps
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func detailFields(m map[string]any) []string {
	var out []string
	e, _ := m["error"].(map[string]any)
	ds, _ := e["details"].([]any)
	for _, d := range ds {
		out = append(out, d.(map[string]any)["field"].(string))
	}
	return out
}
