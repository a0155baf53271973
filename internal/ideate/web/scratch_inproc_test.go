package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/httpapi"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/ideate/web"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestScratchInProc(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	root := repoRoot(t)
	fake := llmtest.NewServer(t)
	script := &agentScript{}
	fake.Handle(script.reply)
	dataDir := t.TempDir()
	repo, err := store.OpenSQLite(context.Background(), filepath.Join(dataDir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	sdk := llm.New(llm.Options{APIKey: "test", BaseURL: fake.URL()}).SDK()
	client := agent.NewClient(&sdk.Messages, nil)
	runner := agent.NewRunner(client, repo, &agent.Options{SpecDir: filepath.Join(dataDir, "specs")})
	api := httpapi.New(httpapi.Options{Repo: repo, Runner: runner})
	mux := http.NewServeMux()
	api.Routes(mux)
	mux.Handle("GET /ghostpath/", web.Handler(web.FS()))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	flow := exec.CommandContext(ctx, "node", "e2e/flow.mjs")
	flow.Dir = filepath.Join(root, "web/ghostpath")
	flow.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "BASE_URL=" + srv.URL, "CHROMIUM=/usr/bin/chromium", "SCREENSHOT_DIR=/tmp/shots2"}
	out, err := flow.CombinedOutput()
	t.Logf("flow:\n%s", out)
	if err != nil {
		t.Error(err)
	}
	for _, p := range script.problems() {
		t.Errorf("script: %s", p)
	}
	t.Logf("requests: %d", len(fake.Requests()))
	if !specStored(t, dataDir) {
		t.Error("spec not stored")
	}
	api.Shutdown()
}
