package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// forgetRun runs "paige learn forget args --store dir" in-process with
// stdin and returns stdout and the error.
func forgetRun(t *testing.T, dir, stdin string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append(append([]string{"learn", "forget"}, args...), "--store", dir),
		mapEnv(map[string]string{"HOME": home, "DATA_DIR": home}), strings.NewReader(stdin), &out, &errb)
	return out.String(), err
}

func TestLearnForgetByWords(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Append(
		learn.Entry{Type: learn.Fact, Content: "The staging DB listens on port 5433"},
		learn.Entry{Type: learn.Fact, Content: "The production DB listens on port 5432"},
		learn.Entry{Type: learn.Rule, Content: "Always run go vet before committing"},
		learn.Entry{Type: learn.Rule, Content: "Never force-push to main"})
	if err != nil {
		t.Fatal(err)
	}
	active := func() int {
		a, err := s.Active()
		if err != nil {
			t.Fatal(err)
		}
		return len(a)
	}

	if out, err := forgetRun(t, dir, "", "it"); err == nil || active() != 4 {
		t.Fatalf("forget it: err %v, %d active, out %q", err, active(), out)
	}
	out, err := forgetRun(t, dir, "n\n", "DB", "port")
	if err != nil || active() != 4 || !strings.Contains(out, stored[0].ID) || !strings.Contains(out, stored[1].ID) ||
		!strings.Contains(out, "Nothing forgotten") {
		t.Fatalf("declined: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "", "force-push"); err != nil || active() != 3 || !strings.Contains(out, "Forgot "+stored[3].ID) {
		t.Fatalf("one match: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "y\n", "DB port"); err != nil || active() != 1 {
		t.Fatalf("confirmed: err %v, %d active, out %q", err, active(), out)
	}
	if out, err := forgetRun(t, dir, "", stored[2].ID[:len(stored[2].ID)-3]); err != nil || active() != 0 {
		t.Fatalf("by id prefix: err %v, %d active, out %q", err, active(), out)
	}
}

func TestLearnForgetYes(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(learn.Entry{Type: learn.Rule, Content: "Run eslint before pushing"},
		learn.Entry{Type: learn.Rule, Content: "Run eslint with --fix"}); err != nil {
		t.Fatal(err)
	}
	if out, err := forgetRun(t, dir, "", "eslint", "--yes"); err != nil || strings.Contains(out, "[y/N]") {
		t.Fatalf("--yes: err %v, out %q", err, out)
	}
	if a, _ := s.Active(); len(a) != 0 {
		t.Fatalf("--yes left %d active", len(a))
	}
}

// TestLearnContextBudgetCap: "paige learn context --budget N" stays within
// N tokens and says what it left out.
func TestLearnContextBudgetCap(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rules []learn.Entry
	for i := range 300 {
		rules = append(rules, learn.Entry{Type: learn.Rule, Content: "Always run linter number " + strings.Repeat("x", i%7) + " before committing"})
	}
	if _, err := s.Append(rules...); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	var out, errb bytes.Buffer
	err = Run(context.Background(), []string{"learn", "context", "--budget", "100", "--store", dir},
		mapEnv(map[string]string{"HOME": home, "DATA_DIR": home}), strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	o := out.String()
	prompt := o[:strings.LastIndex(o, "\n\n(")]
	if len(prompt) > 400 || !strings.Contains(prompt, "- Always run linter") {
		t.Fatalf("over budget: %d chars\n%s", len(prompt), out.String())
	}
	if !strings.Contains(out.String(), "of 100 tokens; left out to fit the budget: ") || !strings.Contains(out.String(), " CONSTRAINTS)") {
		t.Errorf("no left-out summary:\n%s", out.String())
	}
}
