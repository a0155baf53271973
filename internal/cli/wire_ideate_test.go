package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestIdeateSettingsFrom(t *testing.T) {
	env := map[string]string{"AGENT_MODEL": "claude-x", "AGENT_MAX_ITERATIONS": "7", "ANTHROPIC_MAX_RETRIES": "0",
		"ANTHROPIC_BASE_DELAY_MS": "10", "ANTHROPIC_MAX_DELAY_MS": "500", "ANTHROPIC_TIMEOUT_SECONDS": "30",
		"CORS_ORIGINS": `["http://a.test","http://b.test"]`, "DATA_DIR": "/data",
		"PAIGE_MODEL_OPUS": "opus-from-paige", "DATABASE_URL": "postgresql+asyncpg://u:p@db:5432/gp",
		"GHOSTPATH_RESUME_WINDOW_MINUTES": "0"}
	cfg, err := config.Load(mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	s := ideateSettingsFrom(cfg)
	if s.model != "claude-x" || s.maxIterations != 7 || s.client.MaxRetries != -1 || s.client.BaseDelay != 10*time.Millisecond ||
		s.client.MaxDelay != 500*time.Millisecond || s.client.Timeout != 30*time.Second ||
		s.databaseURL != "postgresql://u:p@db:5432/gp" || s.specDir != filepath.Join("/data", "ghostpath", "specs") || s.resumeWindow >= 0 {
		t.Errorf("got %+v", s)
	}
	if diff := cmp.Diff([]string{"http://a.test", "http://b.test"}, s.corsOrigins); diff != "" {
		t.Errorf("cors (-want +got):\n%s", diff)
	}
	cfg, _ = config.Load(mapEnv(map[string]string{"PAIGE_MODEL_OPUS": "opus-from-paige", "CORS_ORIGINS": "http://a.test, http://c.test"}))
	if s := ideateSettingsFrom(cfg); s.model != "opus-from-paige" || s.maxIterations != 50 || s.client.MaxRetries != 3 ||
		s.client.Timeout != llm.DeadlineAgentTurn || len(s.corsOrigins) != 2 || s.resumeWindow != time.Hour {
		t.Errorf("defaults got %+v", s)
	}
}

// TestServeGhostPath drives `paige serve` with llmtest as Claude: the API is
// mounted under /api/v1/, sessions live in DATA_DIR/ghostpath.db and the
// final spec lands in DATA_DIR/ghostpath/specs.
func TestServeGhostPath(t *testing.T) {
	fake := llmtest.NewServer(t)
	s := startServe(t, modelEnv(t, fake))

	if code, _ := getJSON(t, s.base+"/api/v1/health/ready"); code != 200 {
		t.Fatalf("ready got %d", code)
	}
	id := ideateCreate(t, s.base, "How might we reduce churn?")
	fake.Enqueue(ideatetest.FirstRound("R1")...)
	types := ideateStreamTypes(t, s.base+"/api/v1/sessions/"+id+"/stream", "")
	if !strings.Contains(types, "premises") || !strings.HasSuffix(types, "done") {
		t.Fatalf("stream got %s", types)
	}
	if req := fake.Requests()[0]; req.Model != config.DefaultModelOpus || req.MaxTokens != 16384 {
		t.Errorf("model request got %s/%d", req.Model, req.MaxTokens)
	}
	fake.Enqueue(ideatetest.FinalSpec("R1 premise A", "# Spec"))
	types = ideateStreamTypes(t, s.base+"/api/v1/sessions/"+id+"/user-input", `{"type":"resolved","winner":{"title":"R1 premise A","index":0}}`)
	if !strings.HasSuffix(types, "final_spec spec_file_ready done") {
		t.Fatalf("resolve got %s", types)
	}
	if b, err := os.ReadFile(filepath.Join(s.data, "ghostpath", "specs", id+".md")); err != nil || string(b) != "# Spec" {
		t.Errorf("spec on disk got %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(s.data, "ghostpath.db")); err != nil {
		t.Errorf("ghostpath.db: %v", err)
	}
}

// ideateCreate creates a GhostPath session for problem and returns its
// id; anything but 201 with an id fails tb.
func ideateCreate(tb testing.TB, base, problem string) string {
	tb.Helper()
	body, _ := json.Marshal(map[string]string{"problem": problem})
	resp, err := testHTTP.Post(base+"/api/v1/sessions", "application/json", bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	var created map[string]any
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	id, _ := created["id"].(string)
	if resp.StatusCode != 201 || id == "" {
		tb.Fatalf("create got %d %v", resp.StatusCode, created)
	}
	return id
}

// ideateStreamTypes GETs (or POSTs body to) url and returns the SSE event types, space-separated.
func ideateStreamTypes(tb testing.TB, url, body string) string {
	tb.Helper()
	var resp *http.Response
	var err error
	if body == "" {
		resp, err = testHTTP.Get(url)
	} else {
		resp, err = testHTTP.Post(url, "application/json", strings.NewReader(body))
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var types []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var ev struct{ Type string }
			json.Unmarshal([]byte(data), &ev)
			types = append(types, ev.Type)
		}
	}
	return strings.Join(types, " ")
}

// TestServeShutdownEndsGhostPathStreams stops `paige serve` (what SIGTERM
// does) while a GhostPath stream waits on the model: the stream receives
// the SERVER_SHUTTING_DOWN error and done {error: true} before it closes,
// and the model call is aborted.
func TestServeShutdownEndsGhostPathStreams(t *testing.T) {
	fake := llmtest.NewServer(t)
	env := modelEnv(t, fake)
	s := startServe(t, env)
	id := ideateCreate(t, s.base, "How might we reduce churn?")
	fake.Enqueue(ideatetest.Gates(), llmtest.Hang())
	stream, err := testHTTP.Get(s.base + "/api/v1/sessions/" + id + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	fake.WaitRequests(t, 2, testWait)
	done := make(chan error, 1)
	go func() { done <- s.shutdown(t) }()
	var last []string
	sc := bufio.NewScanner(stream.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			last = append(last, data)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if n := len(last); n < 2 || !strings.Contains(last[n-2], `"SERVER_SHUTTING_DOWN"`) || !strings.Contains(last[n-1], `"type":"done","data":{"error":true`) {
		t.Fatalf("stream ended with %v", last)
	}
	fake.WaitCancelled(t, 1, testWait)

	fake.Enqueue(llmtest.Text("Back after the restart."))
	startServe(t, env)
	reqs := fake.WaitRequests(t, 3, testWait)
	if msgs := reqs[2].Messages; len(msgs) != 3 || msgs[1].Role != "assistant" {
		t.Errorf("the resumed call sent %d messages, want 3 (problem, the saved gates turn, its results)", len(msgs))
	}
}
