package cli

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/hook"
)

// pluginSessionStart runs the plugin's one SessionStart command as Claude
// Code does (sh -c, the hook JSON on stdin), with the built paige and
// paige-hook on PATH (only paige when onlyPaige), for a Claude Code session
// in cwd, and returns its stdout; a failure, a stderr line or a run of the
// git on PATH (a fake that records being run) fails tb.
func pluginSessionStart(tb testing.TB, vars map[string]string, cwd string, onlyPaige bool) string {
	tb.Helper()
	bin := pluginPath(tb, onlyPaige)
	ran := filepath.Join(tb.TempDir(), "git-ran")
	writeFile(tb, filepath.Join(bin, "git"), "#!/bin/sh\necho \"$@\" >> "+ran+"\nexit 1\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		tb.Fatal(err)
	}
	defer func() {
		if b, err := os.ReadFile(ran); err == nil {
			tb.Errorf("the SessionStart command ran git: %s", b)
		}
	}()
	env := []string{"PATH=" + bin}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	in := hookInputJSON(tb, map[string]any{"session_id": "cc-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
	r := runHookProcess(tb, "/bin/sh", tb.TempDir(), env, in, "", "-c", pluginCommand(tb, "SessionStart", "session-start"))
	if r.code != 0 || r.stderr != "" {
		tb.Fatalf("plugin SessionStart in %s (only paige %v): exit %d\nstdout %s\nstderr %s", cwd, onlyPaige, r.code, r.stdout, r.stderr)
	}
	return clockFree(r.stdout)
}

// clockFree masks what the clock changes in a SessionStart context: the
// last session the seed recorded, the coaching session's idle time.
func clockFree(s string) string {
	return clockParts.ReplaceAllString(s, "${1}…${2}")
}

var clockParts = regexp.MustCompile(`(?m)(^Last session: |last activity ).*?( ago|$)`)

// pluginPath is a directory holding links to the built paige and, unless
// onlyPaige, paige-hook: the PATH of [pluginSessionStart].
func pluginPath(tb testing.TB, onlyPaige bool) string {
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
	return dir
}

// serveSessionStart is [pluginSessionStart] in the project of the server s
// (its DATA_DIR and port, a valid seed), with paige-hook on PATH.
func serveSessionStart(tb testing.TB, s *served) string {
	tb.Helper()
	home, _ := testSeed(tb, "valid-seed.json")
	port := s.base[strings.LastIndex(s.base, ":")+1:]
	return pluginSessionStart(tb, map[string]string{"HOME": home, "DATA_DIR": s.data, "PORT": port}, s.project, false)
}

// coachingStateProcess is what `paige hook coaching-state` (the plugin's
// second SessionStart command before there was one) prints for a session
// in cwd.
func coachingStateProcess(tb testing.TB, vars map[string]string, cwd string) string {
	tb.Helper()
	env := []string{"PATH=/nonexistent"}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	in := hookInputJSON(tb, map[string]any{"session_id": "cc-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
	r := runHookProcess(tb, builtPaige(tb), tb.TempDir(), env, in, "", "hook", "coaching-state")
	if r.code != 0 || r.stderr != "" {
		tb.Fatalf("coaching-state: exit %d, stderr %s", r.code, r.stderr)
	}
	return r.stdout
}

// markerIDs lists the sessions with a coaching marker in data.
func markerIDs(tb testing.TB, data string) []string {
	tb.Helper()
	list, err := marker.List(data)
	if err != nil {
		tb.Fatal(err)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.SessionID)
	}
	return ids
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
	golden, coaching := clockFree(goldenContext(t)), clockFree(coachingStateProcess(t, vars, cwd))
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

	env := []string{"PATH=/nonexistent"}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	in := hookInputJSON(t, map[string]any{"session_id": "cc-1", "cwd": cwd, "hook_event_name": "SessionStart"})
	r := runHookProcess(t, builtPaigeHook(t), t.TempDir(), env, in, "", "session-start", "--json")
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var out hook.SessionStartOutput
	if err := dec.Decode(&out); err != nil || dec.Decode(new(any)) != io.EOF || r.stderr != "" {
		t.Fatalf("--json: not one JSON value (%v): %s\nstderr %s", err, r.stdout, r.stderr)
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
	if ids := markerIDs(t, data); len(ids) != 1 || ids[0] != sess.ID {
		t.Errorf("markers after the stale one's run: %v, want only %s", ids, sess.ID)
	}

	if out, _, err := runCLI(t, vars, "", "session", "end", "--dir", project); err != nil || !strings.Contains(out, "ended") {
		t.Fatalf("session end: %v %s", err, out)
	}
	if ids := markerIDs(t, data); len(ids) != 0 {
		t.Errorf("markers after the session ended: %v", ids)
	}
	if got := pluginSessionStart(t, vars, cwd, false); got != golden {
		t.Errorf("after the session ended: got\n%s", got)
	}
}
