package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/cli"
	"github.com/paige-dev/paige/internal/testenv"
)

var readyRE = regexp.MustCompile(`MCP \(Claude Code\): (http://\S+)`)

// startServe runs the real `paige serve` in-process (offline, temporary
// project with src/auth.ts, data and home) until the test ends, and
// returns its MCP URL.
func startServe(tb testing.TB) string {
	tb.Helper()
	home, project := tb.TempDir(), tb.TempDir()
	testenv.WriteFile(tb, project+"/src/auth.ts", "export const x = 1;\n", 0o644)
	env := map[string]string{"HOME": home, "PROJECT_DIR": project, "DATA_DIR": home + "/data",
		"PAIGE_OFFLINE": "1", "PORT": "0", "LOG_LEVEL": "warn"}
	ctx, cancel := context.WithCancel(context.Background())
	out, done := &testenv.SyncBuffer{}, make(chan error, 1)
	go func() {
		done <- cli.Run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, out, out)
	}()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("serve: %v\n%s", err, out.String())
		}
	})
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := readyRE.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			done <- err
			tb.Fatalf("serve exited early: %v\n%s", err, out.String())
		default:
		}
	}
	tb.Fatalf("serve not ready:\n%s", out.String())
	return ""
}

// The generator's core against the real server: both loops answer every
// call without error, and the open loop makes exactly rate × duration calls.
func TestRunAgainstServe(t *testing.T) {
	url := startServe(t)
	for _, tc := range []struct {
		mode      string
		wantCalls int // 0: any positive number
	}{
		{mode: "open", wantCalls: 500},
		{mode: "closed"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			// Bound: a loaded machine may send late but sends every call due.
			cfg := config{URL: url, Mode: tc.mode, Rate: 500, Duration: time.Second, Workers: 16,
				Tool: "paige_get_buffer", Path: "src/auth.ts", SrvPID: os.Getpid(), Bound: time.Minute} // the server is in-process
			res, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != 0 || res.FirstErr != nil {
				t.Errorf("errors: got %d (%v), want 0", res.Errors, res.FirstErr)
			}
			if tc.wantCalls > 0 && (res.Calls != tc.wantCalls || res.Missed != 0) {
				t.Errorf("calls: got %d (%d missed), want %d", res.Calls, res.Missed, tc.wantCalls)
			}
			if _, err := os.Stat("/proc/self/stat"); err == nil && res.SrvCPU <= 0 {
				t.Errorf("server cpu: got %v, want > 0 from /proc", res.SrvCPU)
			}
			if res.Calls == 0 || len(res.Lat) != res.Calls || res.Lat[0] <= 0 {
				t.Errorf("calls %d, latencies %d: want as many, positive", res.Calls, len(res.Lat))
			}
		})
	}
}

// realMain's exit codes: 0 for a clean run, 1 when calls fail, 2 for flags
// it refuses (bounds, a host that is not loopback).
func TestRealMainExitCodes(t *testing.T) {
	url := startServe(t)
	for _, tc := range []struct {
		name     string
		args     []string
		want     int
		wantText string // in stdout or stderr
	}{
		{"ok", []string{"-url", url, "-rate", "200", "-duration", "500ms"}, 0, "calls      100 "},
		{"closed", []string{"-url", url, "-mode", "closed", "-duration", "200ms", "-workers", "2"}, 0, "errors     0"},
		{"tool error", []string{"-url", url, "-path", "", "-duration", "200ms"}, 1, "path is required"},
		{"unknown tool", []string{"-url", url, "-tool", "nope", "-duration", "200ms"}, 1, "nope"},
		{"not loopback", []string{"-url", "http://example.com/mcp"}, 2, "only loopback"},
		{"https", []string{"-url", "https://127.0.0.1/mcp"}, 2, "want an http://"},
		{"duration", []string{"-url", url, "-duration", "11m"}, 2, "at most 10m"},
		{"rate", []string{"-url", url, "-rate", "0"}, 2, "-rate 0"},
		{"mode", []string{"-url", url, "-mode", "half"}, 2, "want open or closed"},
		{"workers", []string{"-url", url, "-workers", "0"}, 2, "-workers 0"},
		{"extra", []string{"-url", url, "more"}, 2, "unexpected arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if got := realMain(tc.args, &out, &errOut); got != tc.want {
				t.Errorf("exit: got %d, want %d\nstdout: %s\nstderr: %s", got, tc.want, &out, &errOut)
			}
			if all := out.String() + errOut.String(); !strings.Contains(all, tc.wantText) {
				t.Errorf("output: got %q, want it to contain %q", all, tc.wantText)
			}
		})
	}
}

// With -buffer, every call answers the seeded BufferEntry, which the run
// checks (an answer of null would be an error).
func TestRunSeededBuffer(t *testing.T) {
	url := startServe(t)
	cfg := config{URL: url, Mode: "open", Rate: 400, Duration: 500 * time.Millisecond, Workers: 16,
		Tool: "paige_get_buffer", Path: "src/auth.ts", Buffer: "export const y = 2;\n"}
	res, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 200 || res.Errors != 0 {
		t.Errorf("got %d calls, %d errors (%v), want 200, 0", res.Calls, res.Errors, res.FirstErr)
	}
	var out, errOut bytes.Buffer
	args := []string{"-url", url, "-buffer", "x", "-path", "src/other.ts", "-mode", "closed", "-duration", "200ms"}
	if got := realMain(args, &out, &errOut); got != 0 || !strings.Contains(out.String(), "buffer of 1 bytes seeded") {
		t.Errorf("exit: got %d, want 0\nstdout: %s\nstderr: %s", got, &out, &errOut)
	}
}

// -session starts a coaching session first: the server then has an active
// session (paige_get_session_state answers instead of "No active session"),
// so every call of the run logs its mcp_tool_call row.
func TestRunWithSession(t *testing.T) {
	url := startServe(t)
	hc := &http.Client{Timeout: 30 * time.Second}
	probe, err := connect(context.Background(), hc, url, "paige_get_session_state", map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := probe.callResult(context.Background()); err != nil || !strings.Contains(string(raw), "No active session") {
		t.Fatalf("before the run: %s %v, want No active session", raw, err)
	}
	var out, errOut bytes.Buffer
	args := []string{"-url", url, "-session", "-mode", "closed", "-duration", "200ms", "-workers", "2"}
	if got := realMain(args, &out, &errOut); got != 0 || !strings.Contains(out.String(), "coaching session started") {
		t.Fatalf("exit: got %d, want 0\nstdout: %s\nstderr: %s", got, &out, &errOut)
	}
	if raw, err := probe.callResult(context.Background()); err != nil || strings.Contains(string(raw), "No active session") {
		t.Errorf("after the run: %s %v, want the active session's state", raw, err)
	}
}
