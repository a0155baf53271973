package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
)

// builtPaigeHook returns the paige-hook that [builtPaige] builds beside
// paige.
func builtPaigeHook(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(filepath.Dir(builtPaige(tb)), "paige-hook")
}

// procResult is what a process left behind: its streams, exit code and the
// seed directory's files and commits.
type procResult struct {
	stdout, stderr string
	code           int
	seed, commits  string
}

// runHookProcess runs bin with args in dir and returns what it did to the
// seed at seedPath (lastSessionAt masked: it is the time of the run).
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
	if b, err := os.ReadFile(seedPath); err == nil {
		r.seed = lastSessionAt.ReplaceAllString(string(b), `"lastSessionAt": "…"`)
	}
	if log, err := exec.Command("git", "-C", filepath.Dir(seedPath), "log", "--format=%s%n%b").Output(); err == nil {
		r.commits = string(log)
	}
	return r
}

var lastSessionAt = regexp.MustCompile(`"lastSessionAt":\s*"[^"]*"`)

// TestPaigeHookBinaryMatchesPaigeHook: `paige-hook session-start` (what the
// plugin runs) and `paige hook session-start` print the same bytes on
// stdout and stderr, exit with the same code and leave the seed the same,
// for every kind of seed and every flag.
func TestPaigeHookBinaryMatchesPaigeHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	paige, paigeHook := builtPaige(t), builtPaigeHook(t)
	path := "PATH=" + os.Getenv("PATH")
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
			if strings.HasPrefix(tt.name, "valid record") && !strings.Contains(got[0].commits, " started") {
				t.Errorf("--record-session left no commit: %q", got[0].commits)
			}
		})
	}
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
	r := runHookProcess(t, builtPaigeHook(t), dir, []string{"PATH=" + os.Getenv("PATH"), "PORT=1"}, hookJSON, seedPath, "session-start")
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
	bin, env := builtPaigeHook(t), []string{"PATH=" + os.Getenv("PATH")}
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
