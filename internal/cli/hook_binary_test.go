package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
)

// builtPaigeHook returns the paige-hook that [builtPaige] builds beside
// paige.
func builtPaigeHook(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(filepath.Dir(builtPaige(tb)), "paige-hook")
}

// procResult is what a process left behind: its streams, exit code and the
// seed directory's seed, session log and commits.
type procResult struct {
	stdout, stderr          string
	code                    int
	seed, sessions, commits string
}

// runHookProcess runs bin with args in dir and returns what it did to the
// seed at seedPath (lastSessionAt masked: it is the time of the run), or
// only its streams and exit code when seedPath is "".
func runHookProcess(tb testing.TB, bin, dir string, env []string, stdin, seedPath string, args ...string) procResult {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(env, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := procResult{}
	if err := runBounded(tb, cmd); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			tb.Fatal(err)
		}
		r.code = ee.ExitCode()
	}
	r.stdout, r.stderr = out.String(), errb.String()
	if seedPath == "" {
		return r
	}
	if b, err := os.ReadFile(seedPath); err == nil {
		r.seed = lastSessionAt.ReplaceAllString(string(b), `"lastSessionAt": "…"`)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(seedPath), ".seed.json"+seed.SessionLogSuffix)); err == nil {
		r.sessions = loggedAt.ReplaceAllString(string(b), `"at":"…"`)
	}
	if log, err := exec.Command("git", "-C", filepath.Dir(seedPath), "log", "--format=%s%n%b").Output(); err == nil {
		r.commits = string(log)
	}
	return r
}

var (
	lastSessionAt = regexp.MustCompile(`"lastSessionAt":\s*"[^"]*"`)
	loggedAt      = regexp.MustCompile(`"at":"[^"]*"`)
)

// TestPaigeHookBinaryMatchesPaigeHook: `paige-hook session-start` (what the
// plugin runs) and `paige hook session-start` print the same bytes on
// stdout and stderr, exit with the same code and leave the seed the same,
// for every kind of seed and every flag.
func TestPaigeHookBinaryMatchesPaigeHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	paige, paigeHook := builtPaige(t), builtPaigeHook(t)
	path := "PATH=" + testenv.ToolPath(t, "git")
	type seedKind func(tb testing.TB) (home, seedPath string)
	valid := func(tb testing.TB) (string, string) { return testSeed(tb, "valid-seed.json") }
	invalid := func(tb testing.TB) (string, string) { return invalidSeedHome(tb) }
	missing := func(tb testing.TB) (string, string) { return testSeed(tb, "") }
	unparsable := func(tb testing.TB) (string, string) {
		home, p := testSeed(tb, "valid-seed.json")
		if err := os.WriteFile(p, []byte(`{"version": "1.0.0", `), 0o600); err != nil {
			tb.Fatal(err)
		}
		return home, p
	}
	tests := []struct {
		name  string
		seed  seedKind
		noEnv bool // no HOME
		stdin string
		args  []string
	}{
		{"valid", valid, false, hookJSON, nil},
		{"valid compact", valid, false, hookJSON, []string{"--format", "compact"}},
		{"valid json", valid, false, hookJSON, []string{"--json"}},
		{"valid record session", valid, false, hookJSON, []string{"--record-session"}},
		{"valid record session id flag", valid, false, "", []string{"--record-session", "--session-id", "from-flag"}},
		{"valid garbage stdin", valid, false, "{nope", nil},
		{"valid unknown flag", valid, false, hookJSON, []string{"--future-flag", "--json"}},
		{"invalid", invalid, false, hookJSON, nil},
		{"invalid record session", invalid, false, hookJSON, []string{"--record-session", "--json"}},
		{"missing", missing, false, hookJSON, []string{"--record-session"}},
		{"unparsable", unparsable, false, hookJSON, []string{"--json"}},
		{"no HOME", missing, true, hookJSON, []string{"--json"}},
		{"bad flag value", valid, false, hookJSON, []string{"--json=maybe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [2]procResult
			for i, bin := range []string{paige, paigeHook} {
				home, seedPath := tt.seed(t)
				env := []string{path, "HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PORT=1"}
				if tt.noEnv {
					env = []string{path, "PORT=1"}
				}
				args := append([]string{"session-start"}, tt.args...)
				if i == 0 {
					args = append([]string{"hook"}, args...)
				}
				got[i] = runHookProcess(t, bin, t.TempDir(), env, tt.stdin, seedPath, args...)
				// The two programs name themselves in a usage error only.
				got[i].stderr = strings.Replace(got[i].stderr, filepath.Base(bin)+": ", "PROGRAM: ", 1)
			}
			if got[0] != got[1] {
				t.Errorf("paige hook and paige-hook differ:\npaige hook: %+v\npaige-hook: %+v", got[0], got[1])
			}
			if got[0].stdout == "" && got[0].code == 0 {
				t.Error("no output at all: the comparison proves nothing")
			}
			if strings.HasPrefix(tt.name, "valid record") && !strings.Contains(got[0].sessions, `"id":"`) {
				t.Errorf("--record-session recorded nothing: %q", got[0].sessions)
			}
		})
	}
}

// TestPluginSessionStartStartsNoProcess: the SessionStart command of
// plugin/hooks/hooks.json, run as Claude Code runs it (sh -c, JSON on
// stdin), starts no git, with a git on PATH (a fake that records being
// run) and without one; it prints the context and records the session.
// The next paige write, with git, commits every session recorded so.
func TestPluginSessionStartStartsNoProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	command := pluginCommand(t, "SessionStart", "session-start --record-session")
	home, seedPath := testSeed(t, "valid-seed.json")
	ran := filepath.Join(t.TempDir(), "git-ran")
	withGit, withoutGit := t.TempDir(), t.TempDir()
	for _, dir := range []string{withGit, withoutGit} {
		if err := os.Symlink(builtPaigeHook(t), filepath.Join(dir, "paige-hook")); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(withGit, "git"), "#!/bin/sh\necho \"$@\" >> "+ran+"\nexit 1\n")
	if err := os.Chmod(filepath.Join(withGit, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	ids := []string{"plugin-1", "plugin-2", "plugin-3"}
	for i, id := range ids {
		bin := []string{withGit, withoutGit}[i%2]
		env := []string{"PATH=" + bin, "HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PORT=1"}
		stdin := strings.Replace(hookJSON, "sess-42", id, 1)
		r := runHookProcess(t, "/bin/sh", t.TempDir(), env, stdin, seedPath, "-c", command)
		st, _, err := seed.ReadOnly(seedPath)
		if r.code != 0 || !strings.Contains(r.stdout, "Identity:") || r.stderr != "" || err != nil || st.State.LastSessionID != id {
			t.Fatalf("%s with PATH=%s: exit %d\nstdout %s\nstderr %s\nseed read %v", command, bin, r.code, r.stdout, r.stderr, err)
		}
	}
	if b, err := os.ReadFile(ran); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the hook ran git: %q %v", b, err)
	}
	if _, _, err := runCLI(t, map[string]string{"HOME": home}, "", "seed", "learn", "insight", "Later write"); err != nil {
		t.Fatal(err)
	}
	log, _ := exec.Command("git", "-C", filepath.Dir(seedPath), "log", "--format=%s").Output()
	if want := "Learn: added insight \"Later write\"\nUpdate: 3 sessions started: " + strings.Join(ids, ", ") + "\n"; string(log) != want {
		t.Errorf("commits = %q, want %q", log, want)
	}
}

// pluginCommand returns the one command of the plugin's hooks for event
// that contains part.
func pluginCommand(tb testing.TB, event, part string) string {
	tb.Helper()
	var cfg struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(mustRead(tb, filepath.Join("..", "..", "plugin", "hooks", "hooks.json")), &cfg); err != nil {
		tb.Fatal(err)
	}
	var found []string
	for _, g := range cfg.Hooks[event] {
		for _, h := range g.Hooks {
			if strings.Contains(h.Command, part) {
				found = append(found, h.Command)
			}
		}
	}
	if len(found) != 1 {
		tb.Fatalf("hooks.json %s: %d commands with %q: %q", event, len(found), part, found)
	}
	return found[0]
}

// TestPaigeHookBinaryDotEnv: paige-hook reads .env in its working
// directory like paige does (here PAI_SEED_PATH).
func TestPaigeHookBinaryDotEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	_, seedPath := testSeed(t, "valid-seed.json")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("PAI_SEED_PATH="+seedPath+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runHookProcess(t, builtPaigeHook(t), dir, []string{"PATH=" + testenv.ToolPath(t, "git"), "PORT=1"}, hookJSON, seedPath, "session-start")
	if r.code != 0 || r.stdout != goldenContext(t) {
		t.Errorf("paige-hook with .env: exit %d\n%s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestPaigeHookBinaryUsage: paige-hook answers only session-start; another
// hook name is one line and exit 1, --help exits 0.
func TestPaigeHookBinaryUsage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin, env := builtPaigeHook(t), []string{"PATH=" + testenv.ToolPath(t, "git")}
	r := runHookProcess(t, bin, t.TempDir(), env, "", "", "pre-tool-use")
	if r.code != 1 || r.stderr != "paige-hook: unknown hook \"pre-tool-use\": paige-hook runs session-start; the other hooks are `paige hook pre-tool-use`\n" {
		t.Errorf("unknown hook: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, args := range [][]string{nil, {"--help"}, {"session-start", "--help"}} {
		r := runHookProcess(t, bin, t.TempDir(), env, "", "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "session-start") || r.stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestDoctorBinaryNeedsPaigeHook: doctor's binary check fails, naming the
// fix, when paige-hook (what the plugin's SessionStart hook runs) is not on
// PATH, and passes when both binaries are.
func TestDoctorBinaryNeedsPaigeHook(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("paige")
	var cfg config.Config
	cfg.Process.Path = dir
	c := checkBinary(cfg)
	if c.ok || !strings.Contains(c.detail, "no paige-hook on PATH") || !strings.Contains(c.fix, "make build builds bin/paige-hook") {
		t.Errorf("without paige-hook: %+v", c)
	}
	write("paige-hook")
	if c := checkBinary(cfg); !c.ok || !strings.Contains(c.detail, filepath.Join(dir, "paige-hook")) {
		t.Errorf("with paige-hook: %+v", c)
	}
}

// TestClaudeInstallPointsAtPaigeHook: install writes the SessionStart hook
// as paige-hook when it sits beside the binary and says so; without it the
// hook runs paige and install notes why that is slower.
func TestClaudeInstallPointsAtPaigeHook(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "paige")
	for _, name := range []string{"paige", "paige-hook"} {
		writeFile(t, filepath.Join(dir, name), "#!/bin/sh\n")
		if err := os.Chmod(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	vars := map[string]string{"HOME": home, "PORT": "4111", "DATA_DIR": t.TempDir()}
	out, errOut, err := runPaige(t, vars, "", "claude", "install", "--bin", bin)
	if err != nil || !strings.Contains(out, "hooks run "+filepath.Join(dir, "paige-hook")+" session-start and "+bin+" hook …") || errOut != "" {
		t.Fatalf("install with paige-hook: %v\n%s\n%s", err, out, errOut)
	}
	s := string(mustRead(t, filepath.Join(home, ".claude", "settings.json")))
	if !strings.Contains(s, `"`+filepath.Join(dir, "paige-hook")+` session-start --record-session"`) || strings.Count(s, bin+" hook ") != len(claudecode.Hooks)-1 {
		t.Errorf("settings:\n%s", s)
	}
	if err := os.Remove(filepath.Join(dir, "paige-hook")); err != nil {
		t.Fatal(err)
	}
	_, errOut, err = runPaige(t, vars, "", "claude", "install", "--bin", bin)
	if err != nil || !strings.Contains(errOut, "no paige-hook beside "+bin) {
		t.Fatalf("install without paige-hook: %v %q", err, errOut)
	}
	if s := string(mustRead(t, filepath.Join(home, ".claude", "settings.json"))); strings.Count(s, bin+" hook ") != len(claudecode.Hooks) || strings.Contains(s, "paige-hook") {
		t.Errorf("settings without paige-hook:\n%s", s)
	}
}

// sessionStartProcess runs bin with args as a SessionStart hook of a Claude
// Code session in cwd (the hook JSON on stdin, vars and PATH=path as the
// environment) and returns what it did; a failure or a stderr line fails
// tb.
func sessionStartProcess(tb testing.TB, vars map[string]string, path, cwd, bin string, args ...string) procResult {
	tb.Helper()
	env := []string{"PATH=" + path}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	in := hookInputJSON(tb, map[string]any{"session_id": "cc-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
	r := runHookProcess(tb, bin, tb.TempDir(), env, in, "", args...)
	if r.code != 0 || r.stderr != "" {
		tb.Fatalf("%s %v in %s: exit %d\nstdout %s\nstderr %s", filepath.Base(bin), args, cwd, r.code, r.stdout, r.stderr)
	}
	return r
}

// pluginSessionStart runs the plugin's one SessionStart command as Claude
// Code does (sh -c), with the built paige and paige-hook on PATH (only
// paige when onlyPaige) and a fake git that records being run, and returns
// its stdout with [clockFree]; running git fails tb.
func pluginSessionStart(tb testing.TB, vars map[string]string, cwd string, onlyPaige bool) string {
	tb.Helper()
	dir := tb.TempDir()
	bins := []string{builtPaige(tb), builtPaigeHook(tb)}
	if onlyPaige {
		bins = bins[:1]
	}
	for _, b := range bins {
		if err := os.Symlink(b, filepath.Join(dir, filepath.Base(b))); err != nil {
			tb.Fatal(err)
		}
	}
	ran := filepath.Join(tb.TempDir(), "git-ran")
	writeFile(tb, filepath.Join(dir, "git"), "#!/bin/sh\necho \"$@\" >> "+ran+"\nexit 1\n")
	if err := os.Chmod(filepath.Join(dir, "git"), 0o755); err != nil {
		tb.Fatal(err)
	}
	r := sessionStartProcess(tb, vars, dir, cwd, "/bin/sh", "-c", pluginCommand(tb, "SessionStart", "session-start"))
	if b, err := os.ReadFile(ran); err == nil {
		tb.Errorf("the SessionStart command ran git: %s", b)
	}
	return clockFree(r.stdout)
}

// clockFree masks what the clock changes in a SessionStart context: the
// last session the seed recorded, the coaching session's idle time.
func clockFree(s string) string {
	return clockParts.ReplaceAllString(s, "${1}…${2}")
}

var clockParts = regexp.MustCompile(`(?m)(^Last session: |last activity ).*?( ago|$)`)

// serveSessionStart is [pluginSessionStart] in the project of the server s
// (its DATA_DIR and port, a valid seed), with paige-hook on PATH.
func serveSessionStart(tb testing.TB, s *served) string {
	tb.Helper()
	home, _ := testSeed(tb, "valid-seed.json")
	port := s.base[strings.LastIndex(s.base, ":")+1:]
	return pluginSessionStart(tb, map[string]string{"HOME": home, "DATA_DIR": s.data, "PORT": port}, s.project, false)
}

// hasMarkers reports whether DATA_DIR data holds a coaching marker.
func hasMarkers(data string) bool {
	list, err := marker.List(data)
	return err != nil || len(list) > 0
}

// TestPluginSessionStartAddsCoachingState: the plugin's one SessionStart
// command prints, in a project with an active coaching session, exactly the
// seed context followed by what `paige hook coaching-state` prints (the two
// commands' output), with paige-hook and with only paige on PATH, and with
// --json one hookSpecificOutput holding both; outside the project, with a
// stale marker and once `paige session end` ended the session offline, the
// seed alone. The stale marker is pruned by the one coaching-state run it
// cost.
func TestPluginSessionStartAddsCoachingState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	home, _ := testSeed(t, "valid-seed.json")
	data, project, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	sess := coachedProject(t, data, project)
	vars := map[string]string{"HOME": home, "DATA_DIR": data, "PORT": freePort(t)}
	cwd := filepath.Join(project, "src")
	if err := os.Mkdir(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	golden := clockFree(goldenContext(t))
	coaching := clockFree(sessionStartProcess(t, vars, "/nonexistent", cwd, builtPaige(t), "hook", "coaching-state").stdout)
	if !strings.Contains(coaching, sess.ID) || !strings.Contains(coaching, "Current phase 2 of 3") {
		t.Fatalf("coaching-state printed %q", coaching)
	}
	for _, onlyPaige := range []bool{false, true} {
		if got := pluginSessionStart(t, vars, cwd, onlyPaige); got != golden+coaching {
			t.Errorf("active session, only paige %v: got\n%s\nwant\n%s%s", onlyPaige, got, golden, coaching)
		}
		if got := pluginSessionStart(t, vars, elsewhere, onlyPaige); got != golden {
			t.Errorf("another directory, only paige %v: got\n%s", onlyPaige, got)
		}
	}

	r := sessionStartProcess(t, vars, "/nonexistent", cwd, builtPaigeHook(t), "session-start", "--json")
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var out hook.SessionStartOutput
	if err := dec.Decode(&out); err != nil || dec.Decode(new(any)) != io.EOF {
		t.Fatalf("--json: not one JSON value (%v): %s", err, r.stdout)
	}
	if want := strings.TrimSuffix(golden+coaching, "\n"); clockFree(out.HookSpecificOutput.AdditionalContext) != want {
		t.Errorf("--json context:\n%s\nwant\n%s", out.HookSpecificOutput.AdditionalContext, want)
	}

	stale := marker.Marker{SessionID: "0190-stale", Project: elsewhere, At: time.Now().Add(-2 * marker.Grace)}
	if err := marker.Write(data, stale); err != nil {
		t.Fatal(err)
	}
	if got := pluginSessionStart(t, vars, elsewhere, false); got != golden {
		t.Errorf("stale marker: got\n%s", got)
	}
	if m, ok := marker.Covering(data, elsewhere); ok {
		t.Errorf("the stale marker outlived its run: %+v", m)
	}
	if m, ok := marker.Covering(data, cwd); !ok || m.SessionID != sess.ID {
		t.Errorf("the active session's marker: %+v %v", m, ok)
	}

	if out, _, err := runCLI(t, vars, "", "session", "end", "--dir", project); err != nil || !strings.Contains(out, "ended") {
		t.Fatalf("session end: %v %s", err, out)
	}
	if hasMarkers(data) {
		t.Error("a marker outlived the session's end")
	}
	if got := pluginSessionStart(t, vars, cwd, false); got != golden {
		t.Errorf("after the session ended: got\n%s", got)
	}
}
