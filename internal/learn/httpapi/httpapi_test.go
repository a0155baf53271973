package httpapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/knowledge/knowledgetest"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/learn/learndb/learndbtest"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

type env struct {
	url   string
	root  string // an allowed root holding sample.jsonl
	store *knowledge.Store
	llm   *llmtest.Server
}

// start serves learn's routes over real HTTP: one allowed root, a
// knowledge store, learn.db, chat on the llmtest fake (or offline).
func start(tb testing.TB, x extract.Extractor, offline bool) *env {
	tb.Helper()
	return startWith(tb, x, offline, nil)
}

// startWith is start with deadline overrides for the chat's llm.Client.
func startWith(tb testing.TB, x extract.Extractor, offline bool, deadlines map[string]time.Duration) *env {
	tb.Helper()
	return startKeepAlive(tb, x, offline, deadlines, 0)
}

// startKeepAlive is startWith with the chat stream's keep-alive interval.
func startKeepAlive(tb testing.TB, x extract.Extractor, offline bool, deadlines map[string]time.Duration, keepAlive time.Duration) *env {
	tb.Helper()
	e := &env{root: tb.TempDir(), llm: llmtest.NewServer(tb)}
	raw, err := os.ReadFile("../transcript/testdata/sample-session.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.root, "sample.jsonl"), raw, 0o644)
	e.store = knowledgetest.Open(tb)
	db := learndbtest.Open(tb)
	key := "k"
	if offline {
		key = ""
	}
	svc := &chat.Service{DB: db, Model: &chat.Claude{Client: llm.New(llm.Options{APIKey: key, BaseURL: e.llm.URL(), Deadlines: deadlines,
		Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})},
		Assembler: &learncontext.Assembler{Preprompts: &learncontext.Preprompts{DB: db}, Knowledge: e.store}}
	mux := http.NewServeMux()
	AddRoutes(mux, Deps{Store: e.store, Extractor: x, Roots: NewRoots(e.root), Chat: svc, KeepAlive: keepAlive})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

// call sends a JSON request and decodes the JSON answer into out.
func call(tb testing.TB, method, url, body string, out any) int {
	tb.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		raw, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(raw, out); err != nil {
			tb.Fatalf("%s %s: %d %q: %v", method, url, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

func jsonBody(v any) string { b, _ := json.Marshal(v); return string(b) }

type extractResp struct {
	Stats   map[string]any   `json:"stats"`
	Entries []map[string]any `json:"entries"`
	Error   string           `json:"error"`
}

func TestExtract(t *testing.T) {
	e := start(t, nil, false)
	path := filepath.Join(e.root, "sample.jsonl")
	var got extractResp
	if code := call(t, "POST", e.url+"/api/extract", jsonBody(map[string]any{"transcriptPath": path}), &got); code != 200 {
		t.Fatalf("status %d: %+v", code, got)
	}
	if len(got.Entries) != 2 || got.Stats["turnsProcessed"] != 8.0 || got.Stats["entriesExtracted"] != 2.0 {
		t.Errorf("answer: %+v", got)
	}
	if act, _ := e.store.Active(); len(act) != 2 {
		t.Errorf("store holds %d entries, want 2", len(act))
	}
	got = extractResp{}
	call(t, "POST", e.url+"/api/extract", jsonBody(map[string]any{"transcriptPath": path}), &got)
	if got.Stats["alreadyExtracted"] != true || len(got.Entries) != 0 {
		t.Errorf("second call: %+v", got)
	}
	got = extractResp{}
	call(t, "POST", e.url+"/api/extract", jsonBody(map[string]any{"transcriptPath": path, "force": true}), &got)
	if got.Stats["duplicatesSkipped"] != 2.0 {
		t.Errorf("forced call: %+v", got)
	}
}

func TestExtractRefusesPathsOutsideRoots(t *testing.T) {
	e := start(t, nil, false)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.jsonl")
	os.WriteFile(secret, []byte(`{"type":"user","message":{"role":"user","content":"I prefer secrets"}}`+"\n"), 0o644)
	link := filepath.Join(e.root, "link.jsonl")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(e.root, "dir"), 0o755)
	tests := []struct{ name, body, want string }{
		{"outside", jsonBody(map[string]string{"transcriptPath": secret}), "not under an allowed root"},
		{"dot-dot", jsonBody(map[string]string{"transcriptPath": e.root + "/../" + filepath.Base(outside) + "/secret.jsonl"}), "must not contain '..'"},
		{"symlink out of the root", jsonBody(map[string]string{"transcriptPath": link}), "not under an allowed root"},
		{"relative", jsonBody(map[string]string{"transcriptPath": "sample.jsonl"}), "must be absolute"},
		{"missing", jsonBody(map[string]string{"transcriptPath": filepath.Join(e.root, "nope.jsonl")}), "cannot resolve"},
		{"directory", jsonBody(map[string]string{"transcriptPath": filepath.Join(e.root, "dir")}), "not a regular file"},
		{"no path", `{}`, "transcriptPath is required"},
		{"empty body", ``, "request body is empty"},
		{"not json", `{"transcriptPath":`, "invalid JSON"},
		{"unknown field", `{"path":"/x"}`, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got extractResp
			if code := call(t, "POST", e.url+"/api/extract", tt.body, &got); code != 400 || !strings.Contains(got.Error, tt.want) {
				t.Errorf("got %d %q, want 400 containing %q", code, got.Error, tt.want)
			}
		})
	}
	if es, _ := e.store.Entries(); len(es) != 0 {
		t.Errorf("refused requests stored %v", es)
	}
}

func TestExtractModelFailure(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"model crashed"}`, 500)
	}))
	t.Cleanup(down.Close)
	e := start(t, &extract.Ollama{URL: down.URL, Model: "llama3.2"}, false)
	var got extractResp
	code := call(t, "POST", e.url+"/api/extract", jsonBody(map[string]string{"transcriptPath": filepath.Join(e.root, "sample.jsonl")}), &got)
	if code != 502 || strings.Contains(got.Error, "model crashed") || got.Error != llm.KindUnavailable.Message() {
		t.Errorf("got %d %q, want 502 with a clean message, not the model server's", code, got.Error)
	}
}

func TestDefaultRoots(t *testing.T) {
	home, proj, extra1, extra2 := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude", "projects"), 0o755)
	r := DefaultRoots(home, proj, extra1+string(filepath.ListSeparator)+extra2+string(filepath.ListSeparator)+"/does/not/exist")
	if got := len(r.Dirs()); got != 4 {
		t.Errorf("got %d roots %v, want 4", got, r.Dirs())
	}
	f := filepath.Join(home, ".claude", "projects", "s.jsonl")
	os.WriteFile(f, []byte("{}\n"), 0o644)
	if _, err := r.Resolve(f); err != nil {
		t.Errorf("~/.claude/projects file refused: %v", err)
	}
	if _, err := (Roots{}).Resolve(f); err == nil {
		t.Error("zero Roots allowed a path")
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ name, data string }

func readSSE(tb testing.TB, body io.Reader) []sseEvent {
	tb.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		case line == "":
			out = append(out, cur)
			cur = sseEvent{}
		}
	}
	return out
}

func TestChatAPI(t *testing.T) {
	e := start(t, nil, false)
	e.store.Append(knowledgeRule())
	var ss chat.Session
	if code := call(t, "POST", e.url+"/api/chat/sessions", `{"name":"pairing"}`, &ss); code != 201 || ss.ID == "" || ss.Name != "pairing" {
		t.Fatalf("create: %d %+v", code, ss)
	}
	var list struct{ Sessions []chat.Session }
	call(t, "GET", e.url+"/api/chat/sessions", "", &list)
	if len(list.Sessions) != 1 {
		t.Errorf("sessions: %+v", list)
	}

	e.llm.Enqueue(llmtest.Text("Use a feature branch.").WithUsage(90, 6))
	var sent struct{ Message chat.Message }
	if code := call(t, "POST", e.url+"/api/chat/sessions/"+ss.ID+"/messages", `{"content":"Can I push to main?"}`, &sent); code != 200 {
		t.Fatalf("send: %d", code)
	}
	if sent.Message.Content != "Use a feature branch." || sent.Message.TokenCount != 96 {
		t.Errorf("reply: %+v", sent.Message)
	}
	if sys := e.llm.Requests()[0].System; !strings.Contains(sys, "Never push to main") {
		t.Errorf("system prompt lacks learned rule:\n%s", sys)
	}

	e.llm.Enqueue(llmtest.Text("Branch, then open a PR.").WithUsage(120, 8))
	resp, err := http.Post(e.url+"/api/chat/sessions/"+ss.ID+"/stream", "application/json", strings.NewReader(`{"content":"And then?"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	events := readSSE(t, resp.Body)
	var text strings.Builder
	for _, ev := range events[:len(events)-1] {
		var d struct{ Text string }
		json.Unmarshal([]byte(ev.data), &d)
		if ev.name != "delta" {
			t.Errorf("event %q before done", ev.name)
		}
		text.WriteString(d.Text)
	}
	last := events[len(events)-1]
	var done struct{ Message chat.Message }
	json.Unmarshal([]byte(last.data), &done)
	if last.name != "done" || text.String() != "Branch, then open a PR." || done.Message.TokenCount != 128 {
		t.Errorf("stream: %d events, text %q, last %+v", len(events), text.String(), last)
	}

	var msgs struct{ Messages []chat.Message }
	call(t, "GET", e.url+"/api/chat/sessions/"+ss.ID+"/messages", "", &msgs)
	if len(msgs.Messages) != 4 || msgs.Messages[3].Content != "Branch, then open a PR." {
		t.Errorf("messages: %+v", msgs.Messages)
	}
}

// TestChatStreamKeepAlive: while the model thinks, the chat stream sends
// keep-alive comments, and the events after them are whole.
func TestChatStreamKeepAlive(t *testing.T) {
	e := startKeepAlive(t, nil, false, nil, 10*time.Millisecond)
	var ss chat.Session
	call(t, "POST", e.url+"/api/chat/sessions", `{"name":"slow"}`, &ss)
	e.llm.Enqueue(llmtest.Text("Take your time.").WithDelay(300 * time.Millisecond))
	resp, err := http.Post(e.url+"/api/chat/sessions/"+ss.ID+"/stream", "application/json", strings.NewReader(`{"content":"Think."}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	body := string(raw)
	first := strings.Index(body, "event: ")
	if ka := strings.Index(body, ": keep-alive\n\n"); ka < 0 || ka > first {
		t.Errorf("no keep-alive before the first event:\n%s", body)
	}
	if resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Errorf("headers %v", resp.Header)
	}
	events := readSSE(t, strings.NewReader(body))
	if last := events[len(events)-1]; last.name != "done" || !strings.Contains(last.data, "Take your time.") {
		t.Errorf("events %+v", events)
	}
}

func knowledgeRule() learn.Entry {
	return learn.Entry{Type: "rule", Content: "Never push to main", Confidence: 1, Source: "test"}
}

func TestChatAPIErrors(t *testing.T) {
	e := start(t, nil, false)
	var ss chat.Session
	call(t, "POST", e.url+"/api/chat/sessions", ``, &ss)
	var errResp struct{ Error string }
	tests := []struct {
		method, path, body string
		want               int
	}{
		{"GET", "/api/chat/sessions/nope/messages", "", 404},
		{"POST", "/api/chat/sessions/nope/messages", `{"content":"hi"}`, 404},
		{"POST", "/api/chat/sessions/nope/stream", `{"content":"hi"}`, 404},
		{"POST", "/api/chat/sessions/" + ss.ID + "/messages", `{"content":"  "}`, 400},
		{"POST", "/api/chat/sessions/" + ss.ID + "/messages", `{"text":"hi"}`, 400},
		{"POST", "/api/chat/preprompts", `{"name":"x","type":"opinion","content":"y"}`, 400},
		{"PATCH", "/api/chat/preprompts/nope", `{"active":false}`, 404},
		{"PATCH", "/api/chat/preprompts/nope", `{}`, 400},
		{"DELETE", "/api/chat/preprompts/nope", ``, 404},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path+" "+tt.body, func(t *testing.T) {
			errResp.Error = ""
			if code := call(t, tt.method, e.url+tt.path, tt.body, &errResp); code != tt.want || errResp.Error == "" {
				t.Errorf("got %d %q, want %d with an error", code, errResp.Error, tt.want)
			}
		})
	}
	e.llm.Enqueue(llmtest.Error(500, "api_error", "upstream broke"))
	if code := call(t, "POST", e.url+"/api/chat/sessions/"+ss.ID+"/messages", `{"content":"hi"}`, &errResp); code != 502 {
		t.Errorf("model failure: got %d %q, want 502", code, errResp.Error)
	}

	off := start(t, nil, true)
	call(t, "POST", off.url+"/api/chat/sessions", `{}`, &ss)
	if code := call(t, "POST", off.url+"/api/chat/sessions/"+ss.ID+"/messages", `{"content":"hi"}`, &errResp); code != 503 || !strings.Contains(errResp.Error, "No model is configured") {
		t.Errorf("offline: got %d %q, want 503", code, errResp.Error)
	}
	resp, _ := http.Post(off.url+"/api/chat/sessions/"+ss.ID+"/stream", "application/json", strings.NewReader(`{"content":"hi"}`))
	events := readSSE(t, resp.Body)
	resp.Body.Close()
	if len(events) != 1 || events[0].name != "error" || !strings.Contains(events[0].data, "No model is configured") {
		t.Errorf("offline stream: %+v", events)
	}
}

func TestPrepromptsAndContextAPI(t *testing.T) {
	e := start(t, nil, false)
	var p learncontext.Preprompt
	if code := call(t, "POST", e.url+"/api/chat/preprompts", `{"name":"core","type":"core","content":"You are Paige."}`, &p); code != 201 || !p.Active {
		t.Fatalf("add: %d %+v", code, p)
	}
	var asm learncontext.Assembled
	call(t, "GET", e.url+"/api/chat/context", "", &asm)
	if !strings.Contains(asm.SystemPrompt, "You are Paige.") || asm.Metadata.PrepromptsLoaded != 1 {
		t.Errorf("context: %+v", asm)
	}
	var ok map[string]any
	if code := call(t, "PATCH", e.url+"/api/chat/preprompts/"+p.ID, `{"active":false}`, &ok); code != 200 {
		t.Errorf("patch: %d", code)
	}
	asm = learncontext.Assembled{}
	call(t, "GET", e.url+"/api/chat/context", "", &asm)
	if asm.Metadata.PrepromptsLoaded != 0 {
		t.Errorf("inactive preprompt still loaded: %+v", asm.Metadata)
	}
	var list struct{ Preprompts []learncontext.Preprompt }
	call(t, "GET", e.url+"/api/chat/preprompts", "", &list)
	if len(list.Preprompts) != 1 || list.Preprompts[0].Active {
		t.Errorf("list: %+v", list)
	}
	if code := call(t, "DELETE", e.url+"/api/chat/preprompts/"+p.ID, "", nil); code != 204 {
		t.Errorf("delete: %d", code)
	}
}

func TestExtractConcurrentRequests(t *testing.T) {
	e := start(t, nil, false)
	body := jsonBody(map[string]any{"transcriptPath": filepath.Join(e.root, "sample.jsonl")})
	codes := make(chan int, 4)
	for range 4 {
		go func() { codes <- call(t, "POST", e.url+"/api/extract", body, &extractResp{}) }()
	}
	for range 4 {
		if code := <-codes; code != 200 {
			t.Errorf("status %d", code)
		}
	}
	if es, _ := e.store.Entries(); len(es) != 2 {
		t.Errorf("store holds %d entries after 4 concurrent extractions, want 2", len(es))
	}
}
