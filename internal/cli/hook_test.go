package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
	"github.com/spf13/cobra"
)

// binDir holds the paige binary built for subprocess tests; removed by TestMain.
var binDir string

// TestMain isolates git from the user's configuration and cleans up the
// binary built for subprocess tests.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		os.Unsetenv(k)
	}
	dir, err := os.MkdirTemp("", "paige-cli-test-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	flag.Parse()
	stop := watchdog(packageLimit())
	code := m.Run()
	stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// packageLimit is how long one run of the package's tests may take: a
// full run takes under a minute even on a loaded 2-core machine. Zero (no
// limit) when benchmarking or fuzzing.
func packageLimit() time.Duration {
	for _, name := range []string{"test.bench", "test.fuzz"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return 0
		}
	}
	count := 1
	if f := flag.Lookup("test.count"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 1 {
			count = n
		}
	}
	return time.Duration(count) * 7 * time.Minute
}

// watchdog crashes the test binary with every goroutine's stack once limit
// has passed, so a stuck test is named in the output before CI kills the
// job without it. It returns the function that disarms it.
func watchdog(limit time.Duration) (stop func()) {
	if limit <= 0 {
		return func() {}
	}
	t := time.AfterFunc(limit, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("internal/cli tests still running after %v: a test is stuck (goroutines follow)", limit))
	})
	return func() { t.Stop() }
}

var (
	buildOnce sync.Once
	buildErr  error
)

// builtPaige builds cmd/paige once per test binary and returns its path;
// cmd/paige-hook is built beside it, as `make build` does, so the plugin's
// hooks and `paige claude install` find it.
func builtPaige(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(binDir, "paige")
	buildOnce.Do(func() {
		for _, pkg := range []string{"../../cmd/paige", "../../cmd/paige-hook"} {
			out, err := exec.Command("go", "build", "-o", binDir, pkg).CombinedOutput()
			if err != nil {
				buildErr = err
				tb.Logf("go build %s: %s", pkg, out)
				return
			}
		}
	})
	if buildErr != nil {
		tb.Fatalf("build paige: %v", buildErr)
	}
	return bin
}

// runBounded runs cmd like cmd.Run, but a process still running after
// testWait is killed and fails the test, instead of hanging the package.
// WaitDelay stops Wait from waiting on a child that kept the output pipes.
func runBounded(tb testing.TB, cmd *exec.Cmd) error {
	tb.Helper()
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	timer := time.AfterFunc(testWait, func() { _ = cmd.Process.Kill() })
	err := cmd.Wait()
	if !timer.Stop() {
		tb.Fatalf("%v did not finish within %v (killed): %v", cmd.Args, testWait, err)
	}
	return err
}

// testSeed copies ../seed/testdata/name into a temp home's ~/.pai/seed.json
// and returns the home directory and the seed path.
func testSeed(tb testing.TB, name string) (home, path string) {
	tb.Helper()
	home = tb.TempDir()
	path = filepath.Join(home, ".pai", "seed.json")
	if name == "" {
		return home, path
	}
	data, err := os.ReadFile(filepath.Join("..", "seed", "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return home, path
}

func goldenContext(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "seed", "testdata", "valid-seed.golden"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// runCLI runs paige in-process and returns stdout, stderr and the error.
func runCLI(tb testing.TB, env map[string]string, stdin string, args ...string) (string, string, error) {
	tb.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, mapEnv(env), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

const hookJSON = `{"session_id":"sess-42","transcript_path":"/tmp/t.jsonl","cwd":"/work/x","hook_event_name":"SessionStart","source":"startup"}`

func TestHookSessionStartInProcess(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  func(t *testing.T, out string)
	}{
		{"hook json on stdin", hookJSON, nil, func(t *testing.T, out string) {
			if out != goldenContext(t) {
				t.Errorf("output differs from golden:\n%s", out)
			}
		}},
		{"empty stdin", "", nil, func(t *testing.T, out string) {
			if out != goldenContext(t) {
				t.Errorf("output differs from golden:\n%s", out)
			}
		}},
		{"garbage stdin", "\x00not json{{", nil, func(t *testing.T, out string) {
			if out != goldenContext(t) {
				t.Errorf("output differs from golden:\n%s", out)
			}
		}},
		{"compact", hookJSON, []string{"--format", "compact"}, func(t *testing.T, out string) {
			if !strings.HasPrefix(out, "Seed: v1.0.0 | Ivy (working with Jens-Christian) | Style: adaptive\n") {
				t.Errorf("compact output:\n%s", out)
			}
		}},
		{"json", hookJSON, []string{"--json"}, func(t *testing.T, out string) {
			var got struct {
				HookSpecificOutput struct{ HookEventName, AdditionalContext string }
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if got.HookSpecificOutput.HookEventName != "SessionStart" || got.HookSpecificOutput.AdditionalContext+"\n" != goldenContext(t) {
				t.Errorf("json output = %+v", got)
			}
		}},
		{"unknown flag is ignored", "", []string{"--future-flag"}, func(t *testing.T, out string) {
			if !strings.HasPrefix(out, "Seed: v1.0.0") {
				t.Errorf("output:\n%s", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, _ := testSeed(t, "valid-seed.json")
			out, _, err := runCLI(t, map[string]string{"HOME": home}, tt.stdin, append([]string{"hook", "session-start"}, tt.args...)...)
			if err != nil {
				t.Fatalf("hook returned %v, want nil (exit 0)", err)
			}
			tt.want(t, out)
		})
	}
}

func TestHookSessionStartNeverFails(t *testing.T) {
	home, _ := testSeed(t, "")
	dirSeed := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no HOME", map[string]string{}, nil, seed.ErrorPrefix + "cannot locate the seed: HOME is not set"},
		{"seed is a directory", map[string]string{"HOME": home}, []string{"--seed", dirSeed}, seed.ErrorPrefix + "Failed to read seed file"},
		{"first run", map[string]string{"HOME": home}, nil, seed.SetupMessage},
		{"json error", map[string]string{}, []string{"--json"}, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"PAI session context error: cannot locate`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCLI(t, tt.env, "", append([]string{"hook", "session-start"}, tt.args...)...)
			if err != nil {
				t.Fatalf("hook returned %v, want nil", err)
			}
			if !strings.HasPrefix(out, tt.want) || strings.Count(out, "\n") != 1 {
				t.Errorf("output = %q, want one line starting %q", out, tt.want)
			}
		})
	}
}

// TestHookRecordSession: --record-session writes the session into the
// seed's state at once and commits nothing (no git runs on the path Claude
// Code waits for); the next write of the seed commits it.
func TestHookRecordSession(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	out, _, err := runCLI(t, map[string]string{"HOME": home}, hookJSON, "hook", "session-start", "--record-session")
	if err != nil || !strings.Contains(out, "Last session: 2026-01-30T18:45:00Z") {
		t.Fatalf("hook = %v:\n%s", err, out)
	}
	res, err := seed.Load(path)
	if err != nil || res.Seed.State.LastSessionID != "sess-42" || !seed.IsDatetime(res.Seed.State.LastSessionAt) || res.Seed.State.LastSessionAt == "2026-01-30T18:45:00Z" {
		t.Fatalf("state after record = %+v", res.Seed.State)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".git")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the hook ran git: %v", err)
	}
	if _, _, err := runCLI(t, map[string]string{"HOME": home}, "", "seed", "learn", "insight", "Later write"); err != nil {
		t.Fatal(err)
	}
	log, _ := exec.Command("git", "-C", filepath.Dir(path), "log", "--format=%s").Output()
	if string(log) != "Learn: added insight \"Later write\"\nUpdate: session sess-42 started\n" {
		t.Errorf("commits after the next write = %q", log)
	}
}

// runBinary runs the built paige with env and stdin, returning stdout, stderr
// and the exit code.
func runBinary(tb testing.TB, env []string, stdin string, args ...string) (string, string, int) {
	tb.Helper()
	r := runHookProcess(tb, builtPaige(tb), tb.TempDir(), env, stdin, "", args...)
	return r.stdout, r.stderr, r.code
}

func TestHookSessionStartProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	path := "PATH=" + testenv.ToolPath(t, "git")
	home, _ := testSeed(t, "valid-seed.json")
	unreadableHome, unreadable := testSeed(t, "valid-seed.json")
	if os.Geteuid() == 0 {
		// root reads any file: make the seed unreadable by making it a directory
		if err := os.Remove(unreadable); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(unreadable, 0o700); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	noGitHome, _ := testSeed(t, "valid-seed.json")
	tests := []struct {
		name       string
		env        []string
		wantOut    string
		wantPrefix string
		wantErr    string
	}{
		{"valid seed", []string{path, "HOME=" + home}, goldenContext(t), "", ""},
		{"unreadable seed", []string{path, "HOME=" + unreadableHome}, "", seed.ErrorPrefix, ""},
		{"no HOME", []string{path}, "", seed.ErrorPrefix + "cannot locate the seed: HOME is not set", ""},
		// The hook only reads, so it needs no git and warns about none.
		{"no git on PATH", []string{"PATH=" + t.TempDir(), "HOME=" + noGitHome}, goldenContext(t), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runBinary(t, tt.env, hookJSON, "hook", "session-start")
			if code != 0 {
				t.Fatalf("exit code %d, want 0; stderr %s", code, errOut)
			}
			if tt.wantOut != "" && out != tt.wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.wantOut)
			}
			if tt.wantPrefix != "" && (!strings.HasPrefix(out, tt.wantPrefix) || strings.Count(out, "\n") != 1) {
				t.Errorf("stdout = %q, want one line starting %q", out, tt.wantPrefix)
			}
			if strings.Contains(out+errOut, "goroutine ") || strings.Contains(out+errOut, "panic") {
				t.Errorf("stack trace in output: %s %s", out, errOut)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr = %q, want %q", errOut, tt.wantErr)
			}
		})
	}
}

// BenchmarkHookSessionStartProcess runs `paige hook session-start` on
// valid-seed.json as a whole process and reports the median wall time.
func BenchmarkHookSessionStartProcess(b *testing.B) {
	home, _ := testSeed(b, "valid-seed.json")
	env := []string{"PATH=" + testenv.ToolPath(b, "git"), "HOME=" + home}
	runBinary(b, env, hookJSON, "hook", "session-start") // warm the file cache
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, errOut, code := runBinary(b, env, hookJSON, "hook", "session-start"); code != 0 {
			b.Fatalf("exit %d: %s", code, errOut)
		}
		times = append(times, time.Since(start))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
}

func TestHookSessionStartLargeSeedBounded(t *testing.T) {
	home, _ := testSeed(t, "large-seed.json")
	for _, args := range [][]string{nil, {"--format", "compact"}} {
		out, _, err := runCLI(t, map[string]string{"HOME": home}, hookJSON, append([]string{"hook", "session-start"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if n := len([]rune(strings.TrimSuffix(out, "\n"))); n > seed.MaxContextChars {
			t.Errorf("%v: context is %d characters, want ≤ %d", args, n, seed.MaxContextChars)
		}
		for _, h := range []string{"Seed: v1.0.0", "Pending proposals (", "Last session: ", "... and "} {
			if !strings.Contains(out, h) {
				t.Errorf("%v: missing %q", args, h)
			}
		}
	}
}

func TestHookSessionStartSilentStdin(t *testing.T) {
	old := hookStdinTimeout
	hookStdinTimeout = 50 * time.Millisecond
	t.Cleanup(func() { hookStdinTimeout = old })
	home, _ := testSeed(t, "valid-seed.json")
	r, w := io.Pipe() // a writer that never writes nor closes
	defer w.Close()
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"hook", "session-start"}, mapEnv(map[string]string{"HOME": home}), r, &out, &errb)
	if err != nil || out.String() != goldenContext(t) {
		t.Fatalf("hook = %v:\n%s", err, out.String())
	}
	if !strings.Contains(errb.String(), "no hook input within 50ms") {
		t.Errorf("stderr = %q", errb.String())
	}
}

// TestHookNeverPanics: a panic below a hook (the one recover is at the
// command's edge) is one stderr line and exit 0, for every hook.
func TestHookNeverPanics(t *testing.T) {
	var stderr bytes.Buffer
	e := &env{getenv: func(string) string { return "" }, stdout: io.Discard, stderr: &stderr}
	run := neverPanic(e, "pre-tool-use", func(*cobra.Command, []string) error { panic("boom") })
	if err := run(&cobra.Command{}, nil); err != nil {
		t.Fatalf("a panicking hook returned %v, want nil (exit 0)", err)
	}
	if got := stderr.String(); got != "paige hook pre-tool-use: internal error: boom\n" {
		t.Errorf("stderr = %q", got)
	}
	for _, c := range newHookCmd(e).Commands() {
		if c.RunE == nil || c.Run != nil {
			t.Errorf("hook %s does not run through RunE, which neverPanic guards", c.Name())
		}
	}
}
