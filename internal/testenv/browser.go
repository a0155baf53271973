package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Node returns the path of the node executable; tb fails when there is none
// (the end-to-end scripts run on Node.js).
func Node(tb testing.TB) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Fatalf("node not found: %v (the script runs on Node.js)", err)
	}
	return node
}

// Browser is what a browser end-to-end test drives: headless Chromium, node
// and one web UI's directory (web/<ui>) whose scripts use playwright-core.
type Browser struct {
	Chromium    string // PAIGE_TEST_CHROMIUM
	Node        string // the node executable
	Dir         string // the UI's source directory, where the scripts run
	Screenshots string // PAIGE_E2E_SCREENSHOTS, or a temporary directory of tb
}

// NewBrowser finds Chromium (skipping or failing as [Service] does), skips
// under -short, finds node and checks that web/<ui> has playwright-core
// installed; tb fails when node or playwright-core is missing.
func NewBrowser(tb testing.TB, ui string) *Browser {
	tb.Helper()
	chromium := Service(tb, "PAIGE_TEST_CHROMIUM", "Chromium")
	if testing.Short() {
		tb.Skip("builds the binary and drives a browser")
	}
	b := &Browser{Chromium: chromium, Node: Node(tb), Dir: filepath.Join(RepoRoot(tb), "web", ui)}
	if _, err := os.Stat(filepath.Join(b.Dir, "node_modules", "playwright-core")); err != nil {
		tb.Fatalf("playwright-core not installed: run npm ci in web/%s (scripts/ci/30-web.sh does): %v", ui, err)
	}
	b.Screenshots = os.Getenv("PAIGE_E2E_SCREENSHOTS")
	if b.Screenshots == "" {
		b.Screenshots = tb.TempDir()
	}
	return b
}

// Run runs `node script` in the UI's directory with an environment of PATH,
// a fresh HOME, CHROMIUM, SCREENSHOT_DIR and env (KEY=value), logs its
// output to tb and returns its error (nil when it exited 0).
func (b *Browser) Run(ctx context.Context, tb testing.TB, script string, env ...string) error {
	tb.Helper()
	cmd := exec.CommandContext(ctx, b.Node, script)
	cmd.Dir = b.Dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + tb.TempDir(),
		"CHROMIUM=" + b.Chromium, "SCREENSHOT_DIR=" + b.Screenshots}, env...)
	out, err := cmd.CombinedOutput()
	tb.Logf("%s:\n%s", filepath.Base(script), out)
	return err
}
