package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/cli"
	"github.com/paige-dev/paige/internal/testenv"
)

// serveInProcess runs `paige serve` (offline, on a temporary project) in
// this process until the test ends and returns its base URL.
func serveInProcess(t *testing.T) string {
	t.Helper()
	project, home := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PROJECT_DIR": project, "PAIGE_OFFLINE": "1", "PORT": "0",
		"DATA_DIR": filepath.Join(home, "data"), "PATH": t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	out := &testenv.SyncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- cli.Run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, out, out)
	}()
	t.Cleanup(func() { cancel(); <-done })
	ready := regexp.MustCompile(`Paige is ready on (http://\S+)`)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := ready.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("serve not ready:\n%s", out.String())
	return ""
}

// TestLoadScenarios: against a real server, the editor starts a session
// and holds the buffer, MCP clients read it back (every answer checked),
// buffer:updates are all handled before the barrier returns, and idle
// clients connect; each load counts operations and the server's CPU.
func TestLoadScenarios(t *testing.T) {
	base := serveInProcess(t)
	ctx, pid := context.Background(), os.Getpid()
	editor, err := startEditor(ctx, wsURL(base), bufferText)
	if err != nil {
		t.Fatal(err)
	}
	defer editor.close()
	opened := false
	res, err := mcpLoad(ctx, base, pid, 2, len(bufferText), 100*time.Millisecond, func() { opened = true })
	if err != nil || res.ops == 0 || res.cpuPerOp() <= 0 || !opened {
		t.Fatalf("mcpLoad = %+v, %v (open called %v)", res, err, opened)
	}
	if _, err := mcpLoad(ctx, base, pid, 1, len(bufferText)+1, 10*time.Millisecond, func() {}); err == nil {
		t.Error("mcpLoad accepted answers without the expected buffer")
	}
	if res, err = wsLoad(ctx, editor, pid, bufferText, 100*time.Millisecond); err != nil || res.ops == 0 || res.rate() <= 0 {
		t.Fatalf("wsLoad = %+v, %v", res, err)
	}
	held := false
	if err := idleClients(ctx, wsURL(base), 5, 0, func() { held = true }); err != nil || !held {
		t.Fatalf("idleClients = %v (held %v)", err, held)
	}
}
