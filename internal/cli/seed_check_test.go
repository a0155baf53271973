package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
)

// invalidSeedHome returns a home whose versioned seed was then edited to
// hold 8 invalid values (uncommitted), and the seed's path.
func invalidSeedHome(tb testing.TB) (home, path string) {
	tb.Helper()
	home, path = testSeed(tb, "valid-seed.json")
	if _, err := seed.LoadWithGit(path, nil); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "seed", "testdata", "invalid-values-seed.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return home, path
}

const invalidWarning = "seed.json has 8 invalid values; run `paige seed check`"

func TestHookSessionStartInvalidSeedIsReadOnly(t *testing.T) {
	for _, args := range [][]string{nil, {"--record-session"}, {"--json"}, {"--format", "compact"}} {
		t.Run(strings.Join(append([]string{"args"}, args...), " "), func(t *testing.T) {
			home, path := invalidSeedHome(t)
			dir := filepath.Dir(path)
			before := testenv.Snapshot(t, dir)
			out, errOut, err := runCLI(t, map[string]string{"HOME": home}, hookJSON, append([]string{"hook", "session-start"}, args...)...)
			if err != nil {
				t.Fatalf("hook returned %v, want nil (exit 0)", err)
			}
			context := out
			if len(args) > 0 && args[0] == "--json" {
				var got hook.SessionStartOutput
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatal(err)
				}
				context = got.HookSpecificOutput.AdditionalContext
			}
			if !strings.HasPrefix(context, invalidWarning+"\n\nSeed: v1.0.0") || !strings.Contains(context, "Ivy") || !strings.Contains(context, "Prefers Chart.js over D3") {
				t.Errorf("context:\n%s", context)
			}
			if strings.Contains(context, seed.SetupMessage) {
				t.Error("context tells Claude to run setup")
			}
			if !strings.Contains(errOut, "invalid value $.state.proposals.1.type") {
				t.Errorf("stderr lacks the problems: %q", errOut)
			}
			testenv.AssertUnchanged(t, dir, before)
		})
	}
}

func TestHookSessionStartUnparseableSeed(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	if err := os.WriteFile(path, []byte(`{"version": "1.0.0", "identity": `), 0o600); err != nil {
		t.Fatal(err)
	}
	before := testenv.Snapshot(t, filepath.Dir(path))
	out, _, err := runCLI(t, map[string]string{"HOME": home}, "", "hook", "session-start", "--record-session")
	if err != nil || !strings.HasPrefix(out, seed.ErrorPrefix+"Invalid JSON in seed file") || !strings.HasSuffix(out, "seed.json was left untouched; run `paige seed check`\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("hook = %v, %q", err, out)
	}
	testenv.AssertUnchanged(t, filepath.Dir(path), before)
}

func TestHookSessionStartFirstRunWritesNothing(t *testing.T) {
	home, path := testSeed(t, "")
	out, _, err := runCLI(t, map[string]string{"HOME": home}, "", "hook", "session-start", "--record-session")
	if err != nil || out != seed.SetupMessage+"\n" {
		t.Errorf("hook = %v, %q", err, out)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the first-run hook created %s (%v)", filepath.Dir(path), err)
	}
}

func TestHookSessionStartInvalidSeedProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	home, path := invalidSeedHome(t)
	before := testenv.Snapshot(t, filepath.Dir(path))
	out, errOut, code := runBinary(t, []string{"PATH=" + testenv.ToolPath(t, "git"), "HOME=" + home}, hookJSON, "hook", "session-start")
	if code != 0 || !strings.HasPrefix(out, invalidWarning+"\n\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	testenv.AssertUnchanged(t, filepath.Dir(path), before)
}

func TestSeedCheck(t *testing.T) {
	exitCode := func(err error) int {
		var ee *ExitError
		if errors.As(err, &ee) {
			return ee.Code
		}
		if err != nil {
			return -1
		}
		return 0
	}
	t.Run("invalid values", func(t *testing.T) {
		home, path := invalidSeedHome(t)
		before := testenv.Snapshot(t, filepath.Dir(path))
		out, _, err := runCLI(t, map[string]string{"HOME": home}, "", "seed", "check")
		if exitCode(err) != checkInvalidValues {
			t.Errorf("exit = %v, want %d", err, checkInvalidValues)
		}
		for _, want := range []string{
			path + ": " + invalidWarning,
			"  $.identity.preferences.responseStyle: Invalid enum value. Expected 'concise' | 'detailed' | 'adaptive', received 'verbose' [invalid_enum_value]; repair: replaced with the default",
			"  $.learned.patterns.1.content: String must contain at least 1 character(s) [too_small]; repair: dropped the learning",
			"  $.state.activeProjects.1: Expected string, received number [invalid_type]; repair: dropped the item",
			"Nothing was changed.",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("check output lacks %q:\n%s", want, out)
			}
		}
		if n := strings.Count(out, "; repair: "); n != 8 {
			t.Errorf("%d problems listed, want 8:\n%s", n, out)
		}
		testenv.AssertUnchanged(t, filepath.Dir(path), before)
	})
	for _, tt := range []struct {
		name, data string
		code       int
		want       string
	}{
		{"valid", "", 0, " is valid."},
		{"unparseable", "{oops", checkUnreadable, "cannot be used: Invalid JSON in seed file"},
		{"newer major", `{"version":"3.0.0"}`, checkUnreadable, "requires migration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home, path := testSeed(t, "valid-seed.json")
			if tt.data != "" {
				if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := testenv.Snapshot(t, filepath.Dir(path))
			out, _, err := runCLI(t, map[string]string{"HOME": home}, "", "seed", "check")
			if exitCode(err) != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("check = %v:\n%s", err, out)
			}
			testenv.AssertUnchanged(t, filepath.Dir(path), before)
		})
	}
	t.Run("missing", func(t *testing.T) {
		home, path := testSeed(t, "")
		out, _, err := runCLI(t, map[string]string{"HOME": home}, "", "seed", "check")
		if err != nil || !strings.Contains(out, "No seed at") {
			t.Errorf("check = %v:\n%s", err, out)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("check created the seed")
		}
	})
}

func TestSeedShowAndWritesLeaveAnInvalidSeedAlone(t *testing.T) {
	home, path := invalidSeedHome(t)
	env := map[string]string{"HOME": home}
	before := testenv.Snapshot(t, filepath.Dir(path))
	out, errOut, err := runCLI(t, env, "", "seed", "show")
	if err != nil || !strings.Contains(out, "Identity: Ivy (working with Jens-Christian)") || !strings.Contains(errOut, invalidWarning) {
		t.Errorf("show = %v, stdout:\n%s\nstderr: %s", err, out, errOut)
	}
	if _, _, err := runCLI(t, env, "", "seed", "show", "--json"); err != nil {
		t.Error(err)
	}
	if _, _, err := runCLI(t, env, "", "seed", "proposals", "list"); err != nil {
		t.Error(err)
	}
	for _, args := range [][]string{{"seed", "learn", "insight", "x"}, {"seed", "setup", "--name", "Bob"}, {"seed", "proposals", "accept", "prop_001"}} {
		_, _, err := runCLI(t, env, "", args...)
		if err == nil || !strings.Contains(err.Error(), "paige seed check") {
			t.Errorf("%v = %v, want a refusal naming paige seed check", args, err)
		}
	}
	delete(before, filepath.Join(filepath.Dir(path), "seed.json.lock.tmp"))
	after := testenv.Snapshot(t, filepath.Dir(path))
	delete(after, filepath.Join(filepath.Dir(path), "seed.json.lock.tmp")) // the refused writes took the (empty) lock
	testenv.AssertSame(t, before, after)
}

func TestSeedRepairKeepsValidValues(t *testing.T) {
	home, path := invalidSeedHome(t)
	env := map[string]string{"HOME": home}
	out, _, err := runCLI(t, env, "", "seed", "repair")
	if err != nil || !strings.Contains(out, "fixed 8 invalid values, kept every valid value (the previous file is kept at "+path+".corrupted)") || !strings.Contains(out, "$.state.proposals.1.type") {
		t.Fatalf("repair = %v:\n%s", err, out)
	}
	s := mustSeed(t)(seed.Load(path))
	if s.Identity.PrincipalName != "Jens-Christian" || len(s.Learned.Patterns) != 3 || len(s.State.Proposals) != 2 {
		t.Errorf("repaired seed = %+v", s)
	}
	log, _ := exec.Command("git", "-C", filepath.Dir(path), "log", "-1", "--format=%s").Output()
	if string(log) != "Repair: fixed 8 invalid values, kept every valid value\n" {
		t.Errorf("commit = %q", log)
	}
	if out, _, err := runCLI(t, env, "", "seed", "check"); err != nil || !strings.Contains(out, "is valid") {
		t.Errorf("check after repair = %v:\n%s", err, out)
	}
}
