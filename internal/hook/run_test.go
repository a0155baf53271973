package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/project"
	"github.com/paige-dev/paige/internal/seed"
)

// runHook runs [Run] in-process with the environment vars.
func runHook(t *testing.T, vars map[string]string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, func(k string) string { return vars[k] }, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestRunSessionStart(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "seed", "testdata", "valid-seed.golden"))
	if err != nil {
		t.Fatal(err)
	}
	seedPath := filepath.Join("..", "seed", "testdata", "valid-seed.json")
	vars := map[string]string{"PORT": "1", "DATA_DIR": t.TempDir()}
	out, errOut, code := runHook(t, vars, `{"session_id":"s"}`, "session-start", "--seed", seedPath, "--some-future-flag")
	if code != 0 || out != string(golden) || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, _, code = runHook(t, vars, "", "session-start", "--seed", seedPath, "--json", "--format", "COMPACT")
	if code != 0 || !strings.HasPrefix(out, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Seed: v1.0.0 | `) {
		t.Errorf("--json --format COMPACT: exit %d:\n%s", code, out)
	}
}

// TestRunCoachingStateFails: with a coaching marker over cwd, paige-hook
// runs PAIGE_BIN hook coaching-state; when that cannot run, the seed is
// still printed, alone, and the failure is one stderr line.
func TestRunCoachingStateFails(t *testing.T) {
	seedPath := filepath.Join("..", "seed", "testdata", "valid-seed.json")
	data, project := t.TempDir(), t.TempDir()
	if err := marker.Write(data, marker.Marker{SessionID: "s1", Project: project, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "no-paige")
	vars := map[string]string{"PORT": "1", "DATA_DIR": data, "PAIGE_BIN": bin}
	out, errOut, code := runHook(t, vars, `{"session_id":"s","cwd":"`+project+`"}`, "session-start", "--seed", seedPath)
	if code != 0 || !strings.HasPrefix(out, "Seed: v1.0.0") || strings.Count(errOut, "\n") != 1 ||
		!strings.Contains(errOut, "paige hook session-start: coaching state:") || !strings.Contains(errOut, bin) {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

func TestRunUsage(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		code     int
		inStderr string
	}{
		{nil, 0, ""},
		{[]string{"--help"}, 0, ""},
		{[]string{"session-start", "-h"}, 0, ""},
		{[]string{"session-end"}, 1, `paige-hook: unknown hook "session-end"`},
		{[]string{"session-start", "--json=maybe"}, 1, `paige-hook: invalid argument "maybe" for "--json" flag`},
		{[]string{"session-start", "--format"}, 1, "paige-hook: flag needs an argument: --format"},
	} {
		_, errOut, code := runHook(t, nil, "", tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.inStderr) || (tt.inStderr == "" && errOut != "") {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tt.args, code, errOut, tt.code, tt.inStderr)
		}
	}
}

// TestGuard: a panic below a hook is one stderr line and no error.
func TestGuard(t *testing.T) {
	var stderr bytes.Buffer
	if err := Guard(&stderr, "session-start", func() error { panic("boom") }); err != nil {
		t.Errorf("Guard returned %v after a panic, want nil", err)
	}
	if got := stderr.String(); got != "paige hook session-start: internal error: boom\n" {
		t.Errorf("stderr = %q", got)
	}
}

// TestSessionStartProposalsOfItsProject: Claude Code started in a
// subdirectory of a repository is given that repository's proposals and the
// general ones, never another project's.
func TestSessionStartProposalsOfItsProject(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "cmd", "cli")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := project.ID(repo)
	if err != nil {
		t.Fatal(err)
	}
	s := seed.Defaults()
	s.Identity.PrincipalName = "Ada"
	at := "2026-12-01T00:00:00Z"
	s.State.Proposals = []seed.Proposal{
		{ID: "1", Type: seed.TypePattern, Content: "Runs go test ./...", Source: "session:a", ExtractedAt: at, Status: seed.StatusPending, Project: id},
		{ID: "2", Type: seed.TypePattern, Content: "Runs mix credo --strict", Source: "session:b", ExtractedAt: at, Status: seed.StatusPending, Project: "/elsewhere/.git"},
		{ID: "3", Type: seed.TypePattern, Content: "Prefers short answers", Source: "session:c", ExtractedAt: at, Status: seed.StatusPending},
	}
	seedPath := filepath.Join(t.TempDir(), "seed.json")
	if err := seed.Write(seedPath, s); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PORT": "1", "DATA_DIR": t.TempDir()}
	out, errOut, code := runHook(t, vars, `{"session_id":"s","cwd":"`+sub+`"}`, "session-start", "--seed", seedPath)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "Pending proposals (2):") || !strings.Contains(out, "go test ./...") || !strings.Contains(out, "short answers") || strings.Contains(out, "mix credo") {
		t.Errorf("context for %s:\n%s", sub, out)
	}
}
