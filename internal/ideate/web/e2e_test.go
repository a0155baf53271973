package web_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
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
	browser := testenv.NewBrowser(t, "ghostpath")
	bin := testenv.BuildPaige(t)

	fake := llmtest.NewServer(t)
	script := &agentScript{}
	fake.Handle(script.reply)

	dataDir := t.TempDir()
	srv := testenv.StartServe(t, bin, []string{"PATH=" + testenv.ToolPath(t, "git"), "HOME=" + t.TempDir(), "HOST=127.0.0.1",
		"PROJECT_DIR=" + t.TempDir(), "DATA_DIR=" + dataDir, "ANTHROPIC_API_KEY=test",
		"ANTHROPIC_BASE_URL=" + fake.URL(), "LOG_FORMAT=json", "LOG_LEVEL=debug"})

	tenID := driveTenRounds(t, srv.Base)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := browser.Run(ctx, t, "e2e/flow.mjs", "BASE_URL="+srv.Base, "PAUSE_PROBLEM="+pauseProblem,
		"FAIL_PROBLEM="+failProblem, "FAIL_QUESTION="+failQuestion,
		"TEN_ID="+tenID, "TEN_WINNER="+tenTitle(tenRounds, tenWinner)); err != nil {
		t.Errorf("flow.mjs: %v\npaige serve log (tail):\n%s", err, testenv.Tail(srv.Logs.String(), 4000))
	}
	for _, p := range script.problems() {
		t.Errorf("scripted Claude: %s", p)
	}
	// Opening, reloading or listing a failed session costs nothing: only
	// Resume calls Claude again.
	if got, want := len(fake.Requests()), len(steps)+pauseRequests+failRequests+tenRequests; got != want {
		t.Errorf("Claude requests: got %d, want %d (one per scripted reply: %d main, %d paused then cancelled, %d failed then resumed, %d ten rounds)",
			got, want, len(steps), pauseRequests, failRequests, tenRequests)
	}
	if !specStored(t, dataDir) {
		t.Errorf("no file under DATA_DIR %s holds the final spec", dataDir)
	}
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
