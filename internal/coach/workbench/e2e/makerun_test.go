//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestMakeRunLeavesCheckoutClean runs `make run` the way a new user does
// (no PROJECT_DIR, offline, PORT=0), saves a file through the WebSocket as
// the editor does, and stops it: the save lands in the copy of
// examples/demo-project under DATA_DIR, and the checkout's `git status`
// and the demo project's files are what they were before. A second run
// keeps the copy (edits survive a restart).
func TestMakeRunLeavesCheckoutClean(t *testing.T) {
	root := testenv.RepoRoot(t)
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("make is part of the development environment: %v", err)
	}
	status := func() string { return testenv.Git(t, root, "status", "--porcelain", "--untracked-files=all") }
	before, demoBefore := status(), testenv.Snapshot(t, filepath.Join(root, "examples/demo-project"))
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	copyDir := filepath.Join(data, "demo-project")

	for run := range 2 {
		base := makeRun(t, makeBin, root, tmp, data)
		if run == 1 {
			if b := testenv.ReadFile(t, filepath.Join(copyDir, "src/cart.ts")); !strings.Contains(string(b), "// saved by make run") {
				t.Errorf("the second run replaced the copy: %q", b)
			}
			stopMakeRun(t, base)
			continue
		}
		saveOverWS(t, base.url, "src/cart.ts", "// saved by make run\n")
		if b := testenv.ReadFile(t, filepath.Join(copyDir, "src/cart.ts")); string(b) != "// saved by make run\n" {
			t.Errorf("the save did not reach the copy: %q", b)
		}
		stopMakeRun(t, base)
	}
	if after := status(); after != before {
		t.Errorf("git status changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	testenv.AssertUnchanged(t, filepath.Join(root, "examples/demo-project"), demoBefore)
}

type makeProc struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

var readyLine = regexp.MustCompile(`Paige is ready on (http://\S+)`)

// makeRun starts `make run` with a binary and data directory under tmp and
// the caller's Go caches (a cold cache would take minutes), and waits for
// the ready line.
func makeRun(t *testing.T, makeBin, root, tmp, data string) *makeProc {
	t.Helper()
	cmd := exec.Command(makeBin, "-s", "-C", root, "run", "BIN="+filepath.Join(tmp, "bin", "paige"))
	env := []string{"HOME=" + filepath.Join(tmp, "home"), "DATA_DIR=" + data, "PORT=0", "HOST=127.0.0.1",
		"PAIGE_OFFLINE=1", "LOG_FORMAT=json", "LOG_LEVEL=warn"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "TMPDIR":
			env = append(env, kv)
		}
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if os.Getenv(k) == "" {
			out, err := exec.Command("go", "env", k).Output()
			if err == nil {
				env = append(env, k+"="+strings.TrimSpace(string(out)))
			}
		}
	}
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &testenv.SyncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &makeProc{cmd: cmd, done: make(chan struct{})}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if m := readyLine.FindStringSubmatch(sc.Text()); m != nil {
				ready <- m[1]
			}
		}
	}()
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { stopMakeRun(t, p) })
	select {
	case p.url = <-ready:
	case <-p.done:
		t.Fatalf("make run exited:\n%s", logs.String())
	case <-time.After(10 * time.Minute):
		t.Fatalf("make run printed no ready line:\n%s", logs.String())
	}
	return p
}

// stopMakeRun interrupts make and the server (one process group) and waits.
func stopMakeRun(t *testing.T, p *makeProc) {
	t.Helper()
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// saveOverWS saves path with content through /ws (file:save) and waits for
// the fs:save_ack.
func saveOverWS(t *testing.T, base, path, content string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	msg, _ := json.Marshal(map[string]any{"type": "file:save", "payload": map[string]any{"path": path, "content": content}, "timestamp": time.Now().UnixMilli()})
	if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no fs:save_ack: %v", err)
		}
		var env struct{ Type string }
		_ = json.Unmarshal(b, &env)
		switch env.Type {
		case "fs:save_ack":
			return
		case "fs:save_error", "connection:error":
			t.Fatalf("save: %s", b)
		}
	}
}
