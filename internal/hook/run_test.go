package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
