package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// learnTranscripts is the reader's copy of the real transcripts and the
// plan's fixture (11 files), absolute because the binary runs elsewhere.
var learnTranscripts = func() string {
	p, err := filepath.Abs("../learn/transcript/testdata")
	if err != nil {
		panic(err)
	}
	return p
}()

// learnEnv is a clean environment for the paige binary: a temp HOME and
// DATA_DIR, no Claude key.
func learnEnv(tb testing.TB, extra ...string) []string {
	tb.Helper()
	home := tb.TempDir()
	return append([]string{"HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PATH=" + testenv.ToolPath(tb, "git")}, extra...)
}

// runLearnBin runs the built paige binary with env in a temp directory and
// returns stdout, stderr and the exit code.
func runLearnBin(tb testing.TB, env []string, args ...string) (string, string, int) {
	tb.Helper()
	cmd := exec.Command(builtPaige(tb), args...)
	cmd.Env = env
	cmd.Dir = tb.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := runBounded(tb, cmd)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func decodeSummary(tb testing.TB, out string) pipeline.Summary {
	tb.Helper()
	var s pipeline.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		tb.Fatalf("summary is not JSON: %v\n%s", err, out)
	}
	return s
}

func TestLearnExtractShowForget(t *testing.T) {
	env := learnEnv(t)
	store := filepath.Join(t.TempDir(), "kb")
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts, "--store", store, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("progress bar or noise on a non-terminal stderr: %q", stderr)
	}
	sum := decodeSummary(t, out)
	if sum.Files != 11 || len(sum.Failed) != 0 || sum.Stats.TurnsProcessed == 0 || len(sum.Entries) == 0 {
		t.Errorf("summary: files %d failed %v stats %+v entries %d", sum.Files, sum.Failed, sum.Stats, len(sum.Entries))
	}
	if _, err := os.Stat(filepath.Join(store, "knowledge.md")); err != nil {
		t.Errorf("knowledge.md: %v", err)
	}

	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/*.jsonl", "--store", store, "--json")
	if again := decodeSummary(t, out); again.Skipped != 11 || len(again.Entries) != 0 {
		t.Errorf("second run: skipped %d, entries %d; want 11, 0", again.Skipped, len(again.Entries))
	}

	out, _, code = runLearnBin(t, env, "learn", "show", "--store", store, "--json")
	var shown []learn.Entry
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 || len(shown) != len(sum.Entries) {
		t.Fatalf("show: exit %d, %d entries (want %d), %v", code, len(shown), len(sum.Entries), err)
	}
	victim := shown[0]
	out, stderr, code = runLearnBin(t, env, "learn", "forget", victim.ID, "--store", store)
	if code != 0 || !strings.Contains(out, "Forgot "+victim.ID) {
		t.Errorf("forget: exit %d, %q %q", code, out, stderr)
	}
	out, _, _ = runLearnBin(t, env, "learn", "show", "--store", store)
	if strings.Contains(out, victim.ID) || !strings.Contains(out, shown[len(shown)-1].ID) {
		t.Errorf("show after forget:\n%s", out)
	}
	out, _, _ = runLearnBin(t, env, "learn", "show", "--store", store, "--all")
	if !strings.Contains(out, victim.ID+"  ") || !strings.Contains(out, "(forgotten)") {
		t.Errorf("show --all lacks the forgotten entry:\n%s", out)
	}
	md, _ := os.ReadFile(filepath.Join(store, "knowledge.md"))
	if strings.Contains(string(md), victim.Content) {
		t.Errorf("knowledge.md still shows the forgotten entry")
	}
	_, stderr, code = runLearnBin(t, env, "learn", "forget", "no-such-id", "--store", store)
	if code != 1 || !strings.Contains(stderr, "no entry with that id") {
		t.Errorf("forget unknown: exit %d, %q", code, stderr)
	}
}

func TestLearnExtractHumanOutputAndDefaultStore(t *testing.T) {
	env := learnEnv(t)
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/sample-session.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Processed 8 turns (3 signal, 5 noise)", "Extracted 2 items, 0 duplicates skipped", "2 new entries written",
		"[preference] User prefers using pnpm for package management (confidence: 0.8)", "model: heuristic"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	dataDir := strings.TrimPrefix(env[1], "DATA_DIR=")
	if _, err := os.Stat(filepath.Join(dataDir, "knowledge", "entries.jsonl")); err != nil {
		t.Errorf("default store DATA_DIR/knowledge not used: %v", err)
	}
}

func TestLearnExtractDryRun(t *testing.T) {
	store := filepath.Join(t.TempDir(), "kb")
	out, _, code := runLearnBin(t, learnEnv(t), "learn", "extract", "-i", learnTranscripts+"/sample-session.jsonl", "--store", store, "--dry-run")
	if code != 0 || !strings.Contains(out, "2 new entries (dry run: nothing written)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if files, _ := os.ReadDir(store); len(files) != 0 {
		t.Errorf("dry run wrote %v", files)
	}
}

func TestLearnExtractWithClaude(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.JSON(extract.Extraction{Items: []extract.Item{{Type: "rule", Content: "Run mix format before committing",
			Confidence: 0.9, Evidence: "user said so", Entities: []string{"mix"}}}})
	})
	// PAIGE_EXTRACTOR=model: the model reads every signal turn, and the
	// call is recorded in api_call_log.
	env := learnEnv(t, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv.URL(), "PAIGE_EXTRACTOR=model")
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/cc-2.1.38-tool_heavy.jsonl", "--store", t.TempDir(), "--json", "--no-trail")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := decodeSummary(t, out)
	if len(sum.Entries) != 1 || sum.Entries[0].Content != "Run mix format before committing" {
		t.Errorf("entries: %+v", sum.Entries)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Model != "claude-haiku-4-5-20251001" || !strings.Contains(reqs[0].LastUserText(), "scrolling back in xterm.js") {
		t.Fatalf("requests: %d", len(reqs))
	}
	st, err := store.Open(context.Background(), strings.TrimPrefix(env[1], "DATA_DIR="))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	calls, err := st.APICalls(context.Background(), store.APICallFilter{}, 0)
	if err != nil || len(calls) != 1 || calls[0].CallType != "learn_extract" || calls[0].Model != "claude-haiku-4-5-20251001" || calls[0].InputTokens == 0 {
		t.Errorf("api_call_log: %+v, %v; want one learn_extract row with its tokens", calls, err)
	}

	// The default (auto): this session's turns are task requests, not
	// candidates, so the model is not called at all.
	srv2 := llmtest.NewServer(t)
	env = learnEnv(t, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv2.URL())
	if _, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/cc-2.1.38-tool_heavy.jsonl", "--store", t.TempDir(), "--json"); code != 0 {
		t.Fatalf("auto: exit %d: %s", code, stderr)
	}
	if n := len(srv2.Requests()); n != 0 {
		t.Errorf("auto: %d model requests for a session without candidates, want 0", n)
	}
}

func TestLearnExtractWithOllama(t *testing.T) {
	var models []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req extract.OllamaChatRequest
		json.NewDecoder(r.Body).Decode(&req)
		models = append(models, req.Model)
		content, _ := json.Marshal(extract.Extraction{Items: []extract.Item{{Type: "fact", Content: "The app is a Phoenix project", Confidence: 0.8, Entities: []string{"Phoenix"}}}})
		json.NewEncoder(w).Encode(extract.OllamaChatResponse{Model: req.Model, Done: true, Message: extract.OllamaMessage{Role: "assistant", Content: string(content)}})
	}))
	t.Cleanup(fake.Close)
	env := learnEnv(t, "PAIGE_OLLAMA_URL="+fake.URL, "PAIGE_EXTRACTOR=model") // every signal turn (auto would send none of this session's)
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/cc-2.1.38-tool_heavy.jsonl", "--model", "ollama:qwen3", "--store", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := decodeSummary(t, out)
	if n := len(sum.Entries); n != 3 || sum.Stats.BehaviourEntries != 2 { // start the project: mix phx.server; language: Elixir
		t.Errorf("entries %+v, want the model's and the trail's two", sum.Entries)
	}
	env = learnEnv(t, "PAIGE_OLLAMA_URL="+fake.URL, "PAIGE_LEARN_TRAIL=off", "PAIGE_EXTRACTOR=model")
	out, stderr, code = runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/cc-2.1.38-tool_heavy.jsonl", "--model", "ollama:qwen3", "--store", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if sum := decodeSummary(t, out); len(sum.Entries) != 1 || fmt.Sprint(models) != "[qwen3 qwen3]" {
		t.Errorf("entries %+v, models %v", sum.Entries, models)
	}
}

func TestLearnExtractErrors(t *testing.T) {
	env := learnEnv(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no input", []string{"learn", "extract"}, 2, "no transcripts"},
		{"missing file", []string{"learn", "extract", "-i", "/nope/x.jsonl"}, 1, "no such file"},
		{"unknown model", []string{"learn", "extract", "-i", learnTranscripts, "--model", "gpt-4"}, 2, "unknown model"},
		{"claude without key", []string{"learn", "extract", "-i", learnTranscripts, "--model", "haiku"}, 2, "no model configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runLearnBin(t, env, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d %q, want %d containing %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

func TestLearnExtractReportsFailedTranscripts(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"out of memory"}`, 500)
	}))
	t.Cleanup(down.Close)
	out, stderr, code := runLearnBin(t, learnEnv(t, "PAIGE_OLLAMA_URL="+down.URL), "learn", "extract", "-i",
		learnTranscripts+"/sample-session.jsonl", "-i", learnTranscripts+"/cc-2.1.38-short.jsonl", "--model", "ollama:x", "--store", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "out of memory") || !strings.Contains(out, "1 failed") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
}

func TestServeMountsLearn(t *testing.T) {
	env := serveEnv(t)
	transcript := filepath.Join(env["PROJECT_DIR"], "session.jsonl")
	raw, _ := os.ReadFile(learnTranscripts + "/sample-session.jsonl")
	os.WriteFile(transcript, raw, 0o644)
	s := startServe(t, env)

	post := func(path, body string, out any) int {
		resp, err := testHTTP.Post(s.base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		json.NewDecoder(resp.Body).Decode(out)
		return resp.StatusCode
	}
	var res struct {
		Stats   learn.Stats
		Entries []learn.Entry
		Error   string
	}
	if code := post("/api/extract", fmt.Sprintf(`{"transcriptPath":%q}`, transcript), &res); code != 200 || len(res.Entries) != 2 {
		t.Fatalf("extract: %d %+v", code, res)
	}
	if code := post("/api/extract", `{"transcriptPath":"/etc/passwd"}`, &res); code != 400 || !strings.Contains(res.Error, "not under an allowed root") {
		t.Errorf("outside root: %d %q", code, res.Error)
	}
	if _, err := os.Stat(filepath.Join(env["DATA_DIR"], "knowledge", "entries.jsonl")); err != nil {
		t.Errorf("store not in DATA_DIR/knowledge: %v", err)
	}
	var ss struct{ ID string }
	if code := post("/api/chat/sessions", `{"name":"x"}`, &ss); code != 201 || ss.ID == "" {
		t.Errorf("chat session: %d %+v", code, ss)
	}
	var e struct{ Error string }
	if code := post("/api/chat/sessions/"+ss.ID+"/messages", `{"content":"hi"}`, &e); code != 503 {
		t.Errorf("offline chat: %d %q, want 503", code, e.Error)
	}
	if _, err := os.Stat(filepath.Join(env["DATA_DIR"], "learn.db")); err != nil {
		t.Errorf("learn.db: %v", err)
	}
}

func TestLearnProgressOnlyOnTerminals(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests := []struct {
		name   string
		w      io.Writer
		n      int
		asJSON bool
	}{
		{"buffer", &bytes.Buffer{}, 5, false},
		{"regular file", f, 5, false},
		{"json", os.Stderr, 5, true},
		{"one transcript", os.Stderr, 1, false},
	}
	for _, tt := range tests {
		if bar := learnProgress(tt.w, tt.n, tt.asJSON); bar != nil {
			t.Errorf("%s: got a progress bar, want none", tt.name)
		}
	}
}

func TestLearnBarDraws(t *testing.T) {
	var buf bytes.Buffer
	bar := newLearnBar(&buf, 3, false, true)
	if bar == nil {
		t.Fatal("no bar on a terminal")
	}
	for range 3 {
		bar.Add(1)
	}
	bar.Finish()
	if out := buf.String(); !strings.Contains(out, "transcripts") || !strings.Contains(out, "3/3") {
		t.Errorf("bar output: %q", out)
	}
	if newLearnBar(&buf, 3, true, true) != nil || newLearnBar(&buf, 1, false, true) != nil {
		t.Error("bar with --json or for one transcript")
	}
}

func TestLearnContext(t *testing.T) {
	env := learnEnv(t)
	runLearnBin(t, env, "learn", "extract", "-i", learnTranscripts+"/sample-session.jsonl")
	out, stderr, code := runLearnBin(t, env, "learn", "context")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "## LEARNED KNOWLEDGE\n- User prefers using pnpm for package management") || !strings.Contains(out, "(0 preprompts, 2 entries, 0 rules") {
		t.Errorf("context:\n%s", out)
	}
	out, _, _ = runLearnBin(t, env, "learn", "context", "--json")
	var asm struct {
		Metadata struct{ KnowledgeEntries int }
	}
	if err := json.Unmarshal([]byte(out), &asm); err != nil || asm.Metadata.KnowledgeEntries != 2 {
		t.Errorf("json: %v %s", err, out)
	}
}

// TestLearnContextWhy: for a project, the context takes its procedures
// that still hold, leaves out the one whose script is gone, and the
// receipt says what went in at what cost and why the other was left out.
func TestLearnContextWhy(t *testing.T) {
	env := learnEnv(t)
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "package.json"), []byte(`{"scripts":{"test":"vitest","build":"next build"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := trailtest.New("ctx1", repo).
		Bash("pnpm test", "Tests 3 passed", 0).Bash("pnpm lint", "ok", 0).
		Bash("pnpm test", "Tests 3 passed", 0).Bash("pnpm lint", "ok", 0).Bash("pnpm build", "Compiled", 0)
	tr := filepath.Join(t.TempDir(), "ctx1.jsonl")
	if err := os.WriteFile(tr, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", tr); code != 0 {
		t.Fatalf("extract: exit %d: %s", code, stderr)
	}
	out, stderr, code := runLearnBin(t, env, "learn", "context", "--project", repo, "--why")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	show, _, _ := runLearnBin(t, env, "learn", "show")
	if !strings.Contains(show, "lint: pnpm lint (") || !strings.Contains(show, "build: pnpm build (0.5, session:ctx1) (evidence only: ran successfully 1 time") {
		t.Errorf("show:\n%s", show)
	}
	prompt, receipt, _ := strings.Cut(out, "Context receipt:")
	if !strings.Contains(prompt, "- tests: pnpm test [session:ctx1]") || strings.Contains(prompt, "pnpm lint") {
		t.Errorf("prompt:\n%s", prompt)
	}
	for _, want := range []string{"tokens  - tests: pnpm test [session:ctx1]  (procedure, unconfirmed", "left out: stale: package.json has no script lint", "left out: evidence only: ran successfully 1 time in 1 session"} {
		if !strings.Contains(receipt, want) {
			t.Errorf("receipt lacks %q:\n%s", want, receipt)
		}
	}
}

// TestLearnExtractTrailAcrossSessions: paige learn extract learns how to
// start the project from the fixture's tool trail; a second session of the
// same project doing the same grows the entry's evidence and confidence,
// and the summary says so; --no-trail learns none of it.
func TestLearnExtractTrailAcrossSessions(t *testing.T) {
	env := learnEnv(t)
	store := filepath.Join(t.TempDir(), "kb")
	raw, err := os.ReadFile(learnTranscripts + "/cc-2.1.38-tool_heavy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range []string{"one", "two"} {
		os.WriteFile(filepath.Join(dir, n+".jsonl"), raw, 0o644)
	}
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "one.jsonl"), "--store", store)
	if code != 0 || !strings.Contains(out, "From the tool trail: 2 new, 0 seen again") ||
		!strings.Contains(out, "[procedure] start the project: mix phx.server (confidence: 0.5)") {
		t.Fatalf("first session: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "two.jsonl"), "--store", store)
	if !strings.Contains(out, "From the tool trail: 0 new, 2 seen again") {
		t.Errorf("second session:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "three.jsonl"), raw, 0o644)
	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "three.jsonl"), "--store", store, "--json")
	if sum := decodeSummary(t, out); len(sum.Updated) != 2 || sum.Updated[0].Observed.SessionCount != 3 || sum.Stats.EntriesUpdated != 2 {
		t.Errorf("--json summary of a third session: %+v", sum)
	}
	out, _, _ = runLearnBin(t, env, "learn", "show", "--store", store)
	if !strings.Contains(out, "[procedure] start the project: mix phx.server (0.8, session:one)") || strings.Count(out, "mix phx.server") != 1 {
		t.Errorf("show:\n%s", out)
	}
	md, _ := os.ReadFile(filepath.Join(store, "knowledge.md"))
	if !strings.Contains(string(md), "start the project: mix phx.server (project: /home/marco/projects/spotter)") {
		t.Errorf("knowledge.md:\n%s", md)
	}

	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "one.jsonl"), "--store", t.TempDir(), "--no-trail")
	if strings.Contains(out, "mix phx.server") || strings.Contains(out, "From the tool trail") {
		t.Errorf("--no-trail learned from the trail:\n%s", out)
	}
}

// forgetRun runs "paige learn forget args --store dir" in-process with
// stdin and returns stdout and the error.
func forgetRun(t *testing.T, dir, stdin string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append(append([]string{"learn", "forget"}, args...), "--store", dir),
		mapEnv(map[string]string{"HOME": home, "DATA_DIR": home}), strings.NewReader(stdin), &out, &errb)
	return out.String(), err
}

func TestLearnForgetByWords(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Append(
		learn.Entry{Type: learn.Fact, Content: "The staging DB listens on port 5433"},
		learn.Entry{Type: learn.Fact, Content: "The production DB listens on port 5432"},
		learn.Entry{Type: learn.Rule, Content: "Always run go vet before committing"},
		learn.Entry{Type: learn.Rule, Content: "Never force-push to main"})
	if err != nil {
		t.Fatal(err)
	}
	active := func() int {
		a, err := s.Active()
		if err != nil {
			t.Fatal(err)
		}
		return len(a)
	}

	if out, err := forgetRun(t, dir, "", "it"); err == nil || active() != 4 {
		t.Fatalf("forget it: err %v, %d active, out %q", err, active(), out)
	}
	out, err := forgetRun(t, dir, "n\n", "DB", "port")
	if err != nil || active() != 4 || !strings.Contains(out, stored[0].ID) || !strings.Contains(out, stored[1].ID) ||
		!strings.Contains(out, "Nothing forgotten") {
		t.Fatalf("declined: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "", "force-push"); err != nil || active() != 3 || !strings.Contains(out, "Forgot "+stored[3].ID) {
		t.Fatalf("one match: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "y\n", "DB port"); err != nil || active() != 1 {
		t.Fatalf("confirmed: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "", stored[2].ID[:len(stored[2].ID)-3]); err != nil || active() != 0 {
		t.Fatalf("by id prefix: err %v, %d active, out %q", err, active(), out)
	}
}

func TestLearnForgetYes(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(learn.Entry{Type: learn.Rule, Content: "Run eslint before pushing"},
		learn.Entry{Type: learn.Rule, Content: "Run eslint with --fix"}); err != nil {
		t.Fatal(err)
	}
	if out, err := forgetRun(t, dir, "", "eslint", "--yes"); err != nil || strings.Contains(out, "[y/N]") {
		t.Fatalf("--yes: err %v, out %q", err, out)
	}
	if a, _ := s.Active(); len(a) != 0 {
		t.Fatalf("--yes left %d active", len(a))
	}
}

// TestLearnContextBudgetCap: "paige learn context --budget N" stays within
// N tokens and says what it left out.
func TestLearnContextBudgetCap(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rules []learn.Entry
	for i := range 300 {
		rules = append(rules, learn.Entry{Type: learn.Rule, Content: "Always run linter number " + strings.Repeat("x", i%7) + " before committing"})
	}
	if _, err := s.Append(rules...); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	var out, errb bytes.Buffer
	err = Run(context.Background(), []string{"learn", "context", "--budget", "100", "--store", dir},
		mapEnv(map[string]string{"HOME": home, "DATA_DIR": home}), strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	o := out.String()
	prompt := o[:strings.LastIndex(o, "\n\n(")]
	if len(prompt) > 400 || !strings.Contains(prompt, "- Always run linter") {
		t.Fatalf("over budget: %d chars\n%s", len(prompt), out.String())
	}
	if !strings.Contains(out.String(), "of 100 tokens; left out to fit the budget: ") || !strings.Contains(out.String(), " CONSTRAINTS)") {
		t.Errorf("no left-out summary:\n%s", out.String())
	}
}
