package web_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// TestBrowserFlow is the end-to-end proof of the GhostPath UI: it builds the
// real paige binary, scripts Claude with llmtest, starts `paige serve` and
// runs web/ghostpath/e2e/flow.mjs in headless Chromium (playwright-core):
// create → round 1 → score → ask_user answer → round 2 → resolve → spec
// rendered and downloaded → report. It needs Chromium (PAIGE_TEST_CHROMIUM,
// set by scripts/ci/30-web.sh), node and web/ghostpath/node_modules.
func TestBrowserFlow(t *testing.T) {
	chromium := testenv.Service(t, "PAIGE_TEST_CHROMIUM", "Chromium")
	if testing.Short() {
		t.Skip("builds the binary and drives a browser")
	}
	root := testenv.RepoRoot(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not found: %v (the UI flow runs on Node.js)", err)
	}
	if _, err := os.Stat(filepath.Join(root, "web/ghostpath/node_modules/playwright-core")); err != nil {
		t.Fatalf("playwright-core not installed: run npm ci in web/ghostpath (scripts/ci/30-web.sh does): %v", err)
	}
	// Building may take minutes on a cold cache; the flow itself takes seconds.
	bctx, bcancel := context.WithTimeout(context.Background(), 10*time.Minute)
	bin := testenv.BuildPaige(bctx, t)
	bcancel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	fake := llmtest.NewServer(t)
	script := &agentScript{}
	fake.Handle(script.reply)

	dataDir := t.TempDir()
	base, logs := startServe(ctx, t, bin, fake.URL(), dataDir)

	tenID := driveTenRounds(t, base)

	shots := os.Getenv("PAIGE_E2E_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	flow := exec.CommandContext(ctx, node, "e2e/flow.mjs")
	flow.Dir = filepath.Join(root, "web/ghostpath")
	flow.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"BASE_URL=" + base, "CHROMIUM=" + chromium, "SCREENSHOT_DIR=" + shots,
		"PAUSE_PROBLEM=" + pauseProblem, "TEN_ID=" + tenID, "TEN_WINNER=" + tenTitle(tenRounds, tenWinner)}
	out, err := flow.CombinedOutput()
	t.Logf("flow.mjs:\n%s", out)
	if err != nil {
		t.Errorf("flow.mjs: %v\npaige serve log (tail):\n%s", err, testenv.Tail(logs.String(), 4000))
	}
	for _, p := range script.problems() {
		t.Errorf("scripted Claude: %s", p)
	}
	if got, want := len(fake.Requests()), len(steps)+pauseRequests+tenRequests; got != want {
		t.Errorf("Claude requests: got %d, want %d (one per scripted reply: %d main, %d paused then cancelled, %d ten rounds)",
			got, want, len(steps), pauseRequests, tenRequests)
	}
	if !specStored(t, dataDir) {
		t.Errorf("no file under DATA_DIR %s holds the final spec", dataDir)
	}
}

// startServe runs `paige serve` on a free port and returns its base URL once
// /health answers, and its output. The server is stopped by t.Cleanup.
func startServe(ctx context.Context, t testing.TB, bin, claudeURL, dataDir string) (string, *testenv.SyncBuffer) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "HOST=127.0.0.1", "PORT=0",
		"PROJECT_DIR=" + t.TempDir(), "DATA_DIR=" + dataDir, "ANTHROPIC_API_KEY=test",
		"ANTHROPIC_BASE_URL=" + claudeURL, "LOG_FORMAT=json", "LOG_LEVEL=debug"}
	logs := &testenv.SyncBuffer{}
	ready := make(chan string, 1)
	cmd.Stdout = &readyWriter{out: logs, ready: ready}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start paige serve: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	select {
	case base := <-ready:
		waitHealthy(t, base)
		return base, logs
	case <-time.After(30 * time.Second):
		t.Fatalf("paige serve did not become ready in 30s:\n%s", testenv.Tail(logs.String(), 4000))
	case <-ctx.Done():
		t.Fatalf("paige serve: %v", ctx.Err())
	}
	return "", nil
}

// readyWriter copies serve's stdout to out and sends the base URL of its
// "Paige is ready on URL" line to ready (once).
type readyWriter struct {
	out     io.Writer
	ready   chan<- string
	partial []byte
	sent    bool
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		if url, ok := strings.CutPrefix(line, "Paige is ready on "); ok && !w.sent {
			w.sent = true
			w.ready <- strings.TrimSpace(url)
		}
	}
	return w.out.Write(p)
}

func waitHealthy(t testing.TB, base string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s/health did not answer 200 within 15s", base)
}

// specStored reports whether a file under dir holds the scripted spec.
func specStored(t testing.TB, dir string) bool {
	t.Helper()
	found := false
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, []byte(specMarkdown)) {
			found = true
		}
		return nil
	})
	return found
}
