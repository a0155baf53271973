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

func TestSeedPathResolution(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
		err  string
	}{
		{"home default", map[string]string{"HOME": home}, nil, filepath.Join(home, ".pai", "seed.json"), ""},
		{"env override", map[string]string{"HOME": home, "PAI_SEED_PATH": "/x/env.json"}, nil, "/x/env.json", ""},
		{"flag wins", map[string]string{"HOME": home, "PAI_SEED_PATH": "/x/env.json"}, []string{"--seed", "/x/flag.json"}, "/x/flag.json", ""},
		{"no home", map[string]string{}, nil, "", "HOME is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCLI(t, tt.env, "", append([]string{"seed", "path"}, tt.args...)...)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || strings.TrimSpace(out) != tt.want {
				t.Errorf("path = %q, %v; want %q", out, err, tt.want)
			}
		})
	}
}

func TestSeedShowAndStatus(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	env := map[string]string{"HOME": home}
	out, _, err := runCLI(t, env, "", "seed", "show")
	if err != nil || out != goldenContext(t) {
		t.Errorf("show = %v:\n%s", err, out)
	}
	out, _, err = runCLI(t, env, "", "seed", "show", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	_ = json.Unmarshal([]byte(out), &got)
	data, _ := os.ReadFile(path)
	_ = json.Unmarshal(data, &want)
	if !jsonEqual(got, want) {
		t.Errorf("show --json differs from the file:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".git")); err == nil {
		t.Error("seed show created a git repository; it must never write")
	}
	if _, err := seed.LoadWithGit(path, nil); err != nil { // version the seed as a write would
		t.Fatal(err)
	}
	out, _, err = runCLI(t, env, "", "seed", "status")
	for _, w := range []string{"Path: " + path, "Valid: yes", "Version: 1.0.0", "Git: repository", "Setup: done", "Pending proposals: 1"} {
		if err != nil || !strings.Contains(out, w) {
			t.Errorf("status lacks %q (err %v):\n%s", w, err, out)
		}
	}
	if err := os.WriteFile(path, []byte(`{"version":"1.0.0","identity":{"principalName":""}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, env, "", "seed", "status")
	if !strings.Contains(out, "Valid: no (validation_error") || !strings.Contains(out, "$.identity.principalName: String must contain at least 1 character(s) [too_small]") {
		t.Errorf("status of invalid seed:\n%s", out)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestSeedSetup(t *testing.T) {
	home, path := testSeed(t, "")
	env := map[string]string{"HOME": home, "TZ": "Europe/Zurich"}
	if _, _, err := runCLI(t, env, "", "seed", "setup"); err == nil || !strings.Contains(err.Error(), "--name is required") {
		t.Fatalf("setup without name or terminal: err = %v", err)
	}
	out, _, err := runCLI(t, env, "", "seed", "setup", "--name", "Ada", "--ai-name", "Ivy", "--style", "concise")
	if err != nil || !strings.Contains(out, "Seed set up: Ivy working with Ada") {
		t.Fatalf("setup = %v: %s", err, out)
	}
	s := mustSeed(t)(seed.Load(path))
	if s.Identity.Preferences.Timezone != "Europe/Zurich" || s.Identity.Preferences.ResponseStyle != "concise" || s.Identity.Catchphrase != "Ivy here, ready to go." {
		t.Errorf("identity = %+v", s.Identity)
	}
	out, _, err = runCLI(t, env, "", "seed", "setup", "--name", "Eve")
	if err != nil || !strings.Contains(out, "already set up") {
		t.Errorf("second setup = %v: %s", err, out)
	}

	home2, path2 := testSeed(t, "")
	out, _, err = runCLI(t, map[string]string{"HOME": home2}, "Grace\nHopper-AI\n\ndetailed\nUTC\nen-GB\n", "seed", "setup", "--interactive")
	if err != nil || !strings.Contains(out, "Your name: ") {
		t.Fatalf("interactive setup = %v: %s", err, out)
	}
	id := mustSeed(t)(seed.Load(path2)).Identity
	if id.PrincipalName != "Grace" || id.AIName != "Hopper-AI" || id.Preferences.Locale != "en-GB" || id.Preferences.ResponseStyle != "detailed" {
		t.Errorf("identity = %+v", id)
	}
}

func TestSeedLearnForget(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	env := map[string]string{"HOME": home}
	out, _, err := runCLI(t, env, "", "seed", "learn", "self-knowledge", "Prefers", "short", "answers")
	if err != nil || !strings.Contains(out, "Learned self_knowledge") {
		t.Fatalf("learn = %v: %s", err, out)
	}
	sk := mustSeed(t)(seed.Load(path)).Learned.SelfKnowledge
	last := sk[len(sk)-1]
	if last.Content != "Prefers short answers" || !last.Confirmed {
		t.Errorf("learning = %+v", last)
	}
	if _, _, err := runCLI(t, env, "", "seed", "learn", "habit", "x"); err == nil {
		t.Error("unknown type accepted")
	}
	if _, _, err := runCLI(t, env, "", "seed", "forget", "pat"); !errors.Is(err, seed.ErrIDTooShort) {
		t.Errorf("forget short prefix: err = %v", err)
	}
	if _, _, err := runCLI(t, env, "", "seed", "forget", "pat_"); !errors.Is(err, seed.ErrIDAmbiguous) {
		t.Errorf("forget ambiguous: err = %v", err)
	}
	out, _, err = runCLI(t, env, "", "seed", "forget", last.ID[:5])
	if err != nil || !strings.Contains(out, "Forgot "+last.ID) {
		t.Fatalf("forget = %v: %s", err, out)
	}
	if n := len(mustSeed(t)(seed.Load(path)).Learned.SelfKnowledge); n != len(sk)-1 {
		t.Errorf("self-knowledge = %d, want %d", n, len(sk)-1)
	}
	log, _ := exec.Command("git", "-C", filepath.Dir(path), "log", "--format=%s").Output()
	if !strings.Contains(string(log), "Update: forgot learning "+last.ID) || !strings.Contains(string(log), `Learn: added self_knowledge "Prefers short answers"`) {
		t.Errorf("log:\n%s", log)
	}
}

func TestSeedProposalsCommands(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	env := map[string]string{"HOME": home}
	if _, err := seed.AddProposals(path, []seed.Proposal{
		{ID: "prop_100", Type: seed.TypeInsight, Content: "one", Source: "s"},
		{ID: "q2aaaa", Type: seed.TypeInsight, Content: "two", Source: "s"},
		{ID: "q3aaaa", Type: seed.TypePattern, Content: "three", Source: "s"},
	}, nil); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args []string
		out  string
		err  error
	}{
		{[]string{"list"}, "Pending proposals (4):", nil},
		{[]string{"accept", "prop_"}, "", seed.ErrIDAmbiguous},
		{[]string{"accept", "zzzz"}, "", seed.ErrIDNotFound},
		{[]string{"accept", "pr"}, "", seed.ErrIDTooShort},
		{[]string{"accept", "prop_001"}, "Accepted prop_001 [pattern]", nil},
		{[]string{"reject", "prop_1"}, "Rejected prop_100 [insight] one", nil},
		{[]string{"accept", "prop_100"}, "", seed.ErrNotPending},
		{[]string{"review"}, "Accepted 1, rejected 0, skipped 1.", nil}, // stdin below
		{[]string{"reject-all"}, "Rejected 1 proposal(s).", nil},
		{[]string{"accept-all"}, "Accepted 0 proposal(s).", nil},
		{[]string{"clean"}, "Removed 3 rejected proposal(s).", nil},
		{[]string{"list"}, "No pending proposals.", nil},
	}
	for _, st := range steps {
		out, _, err := runCLI(t, env, "a\ns\n", append([]string{"seed", "proposals"}, st.args...)...)
		if !errors.Is(err, st.err) || !strings.Contains(out, st.out) {
			t.Fatalf("proposals %v = %v:\n%s\nwant %v and %q", st.args, err, out, st.err, st.out)
		}
	}
	status := map[string]string{}
	for _, p := range mustSeed(t)(seed.Load(path)).State.Proposals {
		status[p.ID] = p.Status
	}
	want := map[string]string{"prop_001": "accepted", "prop_002": "accepted", "q2aaaa": "accepted"}
	if !jsonEqual(status, want) {
		t.Errorf("statuses = %v, want %v", status, want)
	}
}

func TestSeedRepairAndSchema(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	env := map[string]string{"HOME": home}
	out, _, err := runCLI(t, env, "", "seed", "repair")
	if err != nil || !strings.Contains(out, "nothing to repair") {
		t.Fatalf("repair of valid seed = %v: %s", err, out)
	}
	if _, err := seed.LoadWithGit(path, nil); err != nil { // version the existing seed (show never writes)
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, env, "", "seed", "repair")
	if err != nil || !strings.Contains(out, "restored the last valid version") {
		t.Fatalf("repair = %v: %s", err, out)
	}
	if got := mustSeed(t)(seed.Load(path)).Identity.AIName; got != "Ivy" {
		t.Errorf("aiName after repair = %q", got)
	}
	out, _, err = runCLI(t, env, "", "seed", "schema")
	schemaPath := filepath.Join(filepath.Dir(path), seed.SchemaFileName)
	if err != nil || !strings.Contains(out, schemaPath) {
		t.Fatalf("schema = %v: %s", err, out)
	}
	written, _ := os.ReadFile(schemaPath)
	printed, _, _ := runCLI(t, env, "", "seed", "schema", "--print")
	if string(written) != printed || !strings.Contains(printed, "draft-07") {
		t.Errorf("schema --print differs from the written file")
	}
}

func TestSeedWithoutGitWarns(t *testing.T) {
	home, path := testSeed(t, "valid-seed.json")
	env := map[string]string{"HOME": home, "PATH": t.TempDir()}
	_, errOut, err := runCLI(t, env, "", "seed", "learn", "insight", "Works without git")
	if err != nil || !strings.Contains(errOut, seed.WarnNoGit) {
		t.Fatalf("learn without git = %v, stderr %q", err, errOut)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".git")); err == nil {
		t.Error("repository created without git")
	}
}

// mustSeed returns the seed of a seed.Load, Peek or LoadWithGit, failing tb
// on its error: mustSeed(t)(seed.Load(path)).
func mustSeed(tb testing.TB) func(seed.Loaded, error) *seed.Seed {
	return func(l seed.Loaded, err error) *seed.Seed {
		tb.Helper()
		if err != nil {
			tb.Fatalf("load seed: %v", err)
		}
		return l.Seed
	}
}

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
