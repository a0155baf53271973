package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/paige-dev/paige/internal/testenv"
)

// procEnv turns vars into a process environment with nothing inherited: the
// PATH holds git only (see [testenv.ToolPath]).
func procEnv(tb testing.TB, vars map[string]string) []string {
	env := []string{"PATH=" + testenv.ToolPath(tb, "git")}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// runServeProcess runs `paige serve` to completion in dir and returns its
// output and exit code.
func runServeProcess(tb testing.TB, dir string, vars map[string]string) (stdout, stderr string, code int) {
	tb.Helper()
	bin := builtPaige(tb) // before the timeout starts: building may be slow
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Dir, cmd.Env = dir, procEnv(tb, vars)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return o.String(), e.String(), exit.ExitCode()
	}
	if err != nil {
		tb.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// Scenarios 1.5, 1.6 and EC-01 as a real process: exit codes and messages.
func TestServeProcessExitCodes(t *testing.T) {
	home := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := strings.TrimPrefix(busy.Addr().String(), "127.0.0.1:")
	tests := []struct {
		name string
		vars map[string]string
		code int
		want []string
	}{
		{"nothing set", map[string]string{"HOME": home}, 1, []string{"PROJECT_DIR", "ANTHROPIC_API_KEY"}},
		{"empty key", map[string]string{"HOME": home, "PROJECT_DIR": home, "ANTHROPIC_API_KEY": " "}, 1, []string{"ANTHROPIC_API_KEY"}},
		{"missing project", map[string]string{"HOME": home, "PROJECT_DIR": filepath.Join(home, "gone"), "ANTHROPIC_API_KEY": "k"}, 1, []string{"does not exist", "gone"}},
		{"port in use", map[string]string{"HOME": home, "PROJECT_DIR": home, "PAIGE_OFFLINE": "1", "PORT": busyPort}, 1, []string{"already in use"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runServeProcess(t, t.TempDir(), tt.vars)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not mention %q", stderr, w)
				}
			}
		})
	}
}

var procReadyRE = regexp.MustCompile(`Paige is ready on http://(\S+)`)

// startServeProcess starts the binary and waits for its Ready line; the
// returned channel yields the process's exit once it ends.
func startServeProcess(tb testing.TB, dir string, vars map[string]string) (cmd *exec.Cmd, addr string, logs *testenv.SyncBuffer) {
	tb.Helper()
	cmd = exec.Command(builtPaige(tb), "serve")
	cmd.Dir, cmd.Env = dir, procEnv(tb, vars)
	logs = &testenv.SyncBuffer{}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = io.MultiWriter(logs, pw), logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); pw.Close() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := procReadyRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case addr = <-found:
	case <-time.After(testWait):
		tb.Fatalf("no Ready line:\n%s", logs.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return cmd, addr, logs
}

// Scenario 1.8 / SC-005 as a real process: SIGTERM and SIGINT with an open
// MCP session and WebSocket connection exit 0 after logging every step.
// EC-04: the working directory has no .env; a second run reads its settings
// from one.
func TestServeProcessSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			env := serveEnv(t)
			dir := t.TempDir()
			if sig == syscall.SIGINT { // settings from .env instead of the environment
				dotenv := "PROJECT_DIR=" + env["PROJECT_DIR"] + "\nPAIGE_OFFLINE=1\n"
				if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(dotenv), 0o600); err != nil {
					t.Fatal(err)
				}
				delete(env, "PROJECT_DIR")
				delete(env, "PAIGE_OFFLINE")
			}
			cmd, addr, logs := startServeProcess(t, dir, env)
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx,
				&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.CloseNow()
			go func() { _, _, _ = ws.Read(ctx) }() // an editor keeps reading

			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			werr := make(chan error, 1)
			go func() { werr <- cmd.Wait() }()
			select {
			case err := <-werr:
				if err != nil {
					t.Fatalf("exit: %v\n%s", err, logs.String())
				}
			case <-time.After(testWait):
				t.Fatalf("did not exit:\n%s", logs.String())
			}
			out := logs.String()
			for _, step := range []string{"mcp sessions closed", "websocket connections closed", "step=watcher",
				"step=timers", "step=database", "paige stopped"} {
				if !strings.Contains(out, step) {
					t.Errorf("log lacks %s:\n%s", step, out)
				}
			}
		})
	}
}
