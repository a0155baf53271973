package cli

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// modelEnv is serveEnv with Claude pointed at the fake Messages API.
func modelEnv(tb testing.TB, fake interface{ URL() string }) map[string]string {
	tb.Helper()
	env := serveEnv(tb)
	delete(env, "PAIGE_OFFLINE")
	env["ANTHROPIC_API_KEY"] = "sk-ant-test"
	env["ANTHROPIC_BASE_URL"] = fake.URL()
	return env
}

// openDB opens a second connection to the server's coaching database.
func openDB(tb testing.TB, s *served) *store.Store {
	tb.Helper()
	db, err := store.Open(context.Background(), s.data)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// startSession starts a session from the editor and returns its id.
func startSession(tb testing.TB, editor *wsClient, title string) string {
	tb.Helper()
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 7, "issueTitle": title})
	var started wsapi.SessionStarted
	editor.expect(wsapi.TypeSessionStarted, &started)
	return started.SessionID
}

// startCoaching runs `paige serve` with Claude pointed at fake, opens its
// coaching database and an editor connection, and starts a session titled
// title from the editor; it returns the server, the database, the editor
// and the session's id.
func startCoaching(tb testing.TB, fake interface{ URL() string }, title string) (*served, *store.Store, *wsClient, string) {
	tb.Helper()
	s := startServe(tb, modelEnv(tb, fake))
	db := openDB(tb, s)
	editor := s.ws(tb)
	return s, db, editor, startSession(tb, editor, title)
}

// userJSON decodes the user message of a fake request.
func userJSON(tb testing.TB, r llmtest.Request) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.LastUserText()), &m); err != nil {
		tb.Fatalf("user message is not JSON: %v\n%s", err, r.LastUserText())
	}
	return m
}

// apiCalls lists the api_call_log rows of one call type.
func apiCalls(tb testing.TB, db *store.Store, callType string) []coach.APICall {
	tb.Helper()
	all, err := db.APICalls(context.Background(), store.APICallFilter{}, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var out []coach.APICall
	for _, c := range all {
		if c.CallType == callType {
			out = append(out, c)
		}
	}
	return out
}

// actionsOf returns a session's actions of type t, waiting (up to testWait) for the
// server's batched action writer.
func actionsOf(tb testing.TB, db *store.Store, sessionID string, t coach.ActionType, want int) []coach.Action {
	tb.Helper()
	deadline := time.Now().Add(testWait)
	for {
		list, err := db.RecentActions(context.Background(), store.ActionQuery{SessionID: sessionID, Types: []coach.ActionType{t}})
		if err != nil {
			tb.Fatal(err)
		}
		if len(list) >= want || time.Now().After(deadline) {
			return list
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// dataOf decodes an action's data.
func dataOf(tb testing.TB, a coach.Action) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.Data, &m); err != nil {
		tb.Fatalf("%s data: %v", a.Type, err)
	}
	return m
}

func storeGapFilter(sessionID string) store.GapFilter { return store.GapFilter{SessionID: sessionID} }

func gapByID(gaps []coach.KnowledgeGap, id string) coach.KnowledgeGap {
	for _, g := range gaps {
		if g.ID == id {
			return g
		}
	}
	return coach.KnowledgeGap{}
}

// configFor loads the configuration serve would load from env.
func configFor(env map[string]string) (config.Config, error) {
	return config.Load(func(k string) string { return env[k] })
}

// typesUntil reads messages until one of type stop arrives and returns the
// types read before it.
func (w *wsClient) typesUntil(stop string) []string {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	var seen []string
	for {
		env := w.read(ctx, stop)
		if env.Type == stop {
			return seen
		}
		seen = append(seen, env.Type)
	}
}

// checkStructured fails unless r asked for structured output
// (output_config.format json_schema) whose top-level properties include
// props, with max_tokens 4096 and no tools.
func checkStructured(tb testing.TB, r llmtest.Request, props ...string) {
	tb.Helper()
	if r.OutputFormat["type"] != "json_schema" || r.MaxTokens != 4096 || len(r.Tools) != 0 {
		tb.Errorf("request: format %v, max_tokens %d, tools %v", r.OutputFormat["type"], r.MaxTokens, r.Tools)
	}
	schemaProps, _ := r.Schema()["properties"].(map[string]any)
	for _, p := range props {
		if _, ok := schemaProps[p]; !ok {
			tb.Errorf("schema lacks %q: %v", p, r.Schema())
		}
	}
}

func callParams(name string, args any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}

// expectAll reads messages until one of each type has arrived, in any order,
// and returns the first message of each type.
func (w *wsClient) expectAll(types ...string) map[string]wsapi.Envelope {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	missing := map[string]bool{}
	for _, t := range types {
		missing[t] = true
	}
	got := map[string]wsapi.Envelope{}
	for len(missing) > 0 {
		env := w.read(ctx, missing)
		if missing[env.Type] {
			got[env.Type] = env
			delete(missing, env.Type)
		}
	}
	return got
}

// claude scripts the fake Messages API for the coaching features: scripted
// answers go, in order, to every request except the Observer's triage
// calls, which the running Observer (story 10) may make at any time and
// which get a "no nudge" answer.
type claude struct {
	fake *llmtest.Server
	mu   sync.Mutex
	q    []llmtest.Response                     // guarded by mu
	def  func(llmtest.Request) llmtest.Response // guarded by mu; nil: 500
}

func newClaude(tb testing.TB) *claude {
	tb.Helper()
	c := &claude{fake: llmtest.NewServer(tb)}
	c.fake.Handle(c.serve)
	return c
}

// URL is the fake's base URL.
func (c *claude) URL() string { return c.fake.URL() }

// Enqueue scripts the next answers to non-Observer requests.
func (c *claude) Enqueue(rs ...llmtest.Response) {
	c.mu.Lock()
	c.q = append(c.q, rs...)
	c.mu.Unlock()
}

// Handle answers non-Observer requests once the script is used up.
func (c *claude) Handle(f func(llmtest.Request) llmtest.Response) {
	c.mu.Lock()
	c.def = f
	c.mu.Unlock()
}

// Requests returns the non-Observer requests received, in order.
func (c *claude) Requests() []llmtest.Request {
	var out []llmtest.Request
	for _, r := range c.fake.Requests() {
		if !isTriage(r) {
			out = append(out, r)
		}
	}
	return out
}

func (c *claude) serve(r llmtest.Request) llmtest.Response {
	if isTriage(r) {
		return llmtest.JSON(observertriage.Response{Signal: "no_nudge", Reasoning: "test"})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.q) > 0 {
		next := c.q[0]
		c.q = c.q[1:]
		return next
	}
	if c.def != nil {
		return c.def(r)
	}
	return llmtest.Error(500, "api_error", "test: no scripted response")
}

func isTriage(r llmtest.Request) bool {
	return strings.HasPrefix(r.System, observertriage.SystemPrompt[:40])
}
