package learncontext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

func observed(key string, sessions, runs, final int) *learn.Observed {
	return &learn.Observed{Key: key, SessionCount: sessions, Runs: runs, Final: final}
}

// TestAssembleForProject: only the current project's entries (and those
// holding everywhere) go in; rules and procedures first, confirmed before
// unconfirmed, recent before old; stale entries, one-offs and file-edit
// statistics stay out; the receipt says why for each.
func TestAssembleForProject(t *testing.T) {
	const here, there = "/src/app/.git", "/src/other/.git"
	entries := []learn.Entry{
		{ID: "f1", Type: learn.Fact, Content: "package manager: pnpm", Confidence: 0.5, Project: here, ExtractedAt: "2026-03-01T00:00:00Z", Observed: observed("fact:package manager: pnpm", 1, 3, 0)},
		{ID: "p-old", Type: learn.Procedure, Content: "tests: pnpm test", Confidence: 0.5, Project: here, Source: "session:aaaaaaaa-1111-4222-8333-444444444444", ExtractedAt: "2026-01-01T00:00:00Z", Observed: observed("procedure:test::pnpm test", 1, 1, 1)},
		{ID: "p-confirmed", Type: learn.Procedure, Content: "build: pnpm build", Confidence: 0.65, Project: here, ExtractedAt: "2025-12-01T00:00:00Z", Observed: observed("procedure:build::pnpm build", 2, 2, 0)},
		{ID: "p-oneoff", Type: learn.Procedure, Content: "build: pnpm build --force", Confidence: 0.5, Project: here, ExtractedAt: "2026-03-02T00:00:00Z", Evidence: "ran successfully 1 time in 1 session", Observed: observed("procedure:build::pnpm build --force", 1, 1, 0)},
		{ID: "p-stale", Type: learn.Procedure, Content: "lint: pnpm lint", Confidence: 0.8, Project: here, ExtractedAt: "2026-03-03T00:00:00Z", Observed: observed("procedure:lint::pnpm lint", 3, 3, 1)},
		{ID: "edits", Type: learn.Fact, Content: "often edited: src/App.tsx", Confidence: 0.5, Project: here, Observed: observed("fact:often edited: src/App.tsx", 1, 5, 0)},
		{ID: "r-global", Type: learn.Rule, Content: "Never force-push to main", Confidence: 0.8, ExtractedAt: "2026-02-01T00:00:00Z"},
		{ID: "r-other", Type: learn.Rule, Content: "Always run mix credo", Confidence: 0.8, Project: there, ExtractedAt: "2026-02-01T00:00:00Z"},
		{ID: "pref", Type: learn.Preference, Content: "User prefers small commits", Confidence: 0.7, ExtractedAt: "2026-02-02T00:00:00Z"},
	}
	a := AssembleFor(nil, entries, 0, Scope{Project: here, Stale: map[string]string{"p-stale": "package.json has no script lint"}})
	var order []string
	left := map[string]string{}
	for _, it := range a.Receipt {
		if it.LeftOut == "" {
			order = append(order, it.ID)
		} else {
			left[it.ID] = it.LeftOut
		}
	}
	if want := "r-global p-confirmed p-old pref f1"; strings.Join(order, " ") != want {
		t.Errorf("order: got %q, want %q", strings.Join(order, " "), want)
	}
	for id, why := range map[string]string{"p-stale": "stale: package.json has no script lint", "r-other": "another project (/src/other)",
		"p-oneoff": "evidence only: ran successfully 1 time in 1 session", "edits": "evidence only"} {
		if !strings.HasPrefix(left[id], why) {
			t.Errorf("%s left out: got %q, want %q", id, left[id], why)
		}
	}
	for _, bad := range []string{"often edited", "mix credo", "--force", "pnpm lint"} {
		if strings.Contains(a.SystemPrompt, bad) {
			t.Errorf("prompt holds %q:\n%s", bad, a.SystemPrompt)
		}
	}
	if !strings.Contains(a.SystemPrompt, "- tests: pnpm test [session:aaaaaaaa]") {
		t.Errorf("an item is short and sourced:\n%s", a.SystemPrompt)
	}
	if strings.Index(a.SystemPrompt, "PROCEDURES") > strings.Index(a.SystemPrompt, "LEARNED KNOWLEDGE") {
		t.Errorf("procedures come before other knowledge:\n%s", a.SystemPrompt)
	}
	for _, it := range a.Receipt {
		if it.LeftOut == "" && (it.Tokens <= 0 || it.Why == "") {
			t.Errorf("receipt item without cost or reason: %+v", it)
		}
	}
}

// TestAssembleForBudget: what does not fit is in the receipt as left out
// for the budget, the best kept.
func TestAssembleForBudget(t *testing.T) {
	var entries []learn.Entry
	for i := range 50 {
		entries = append(entries, learn.Entry{ID: string(rune('a'+i%26)) + strings.Repeat("x", i), Type: learn.Rule,
			Content: "Never do thing number " + strings.Repeat("z", 100), Confidence: 0.8, ExtractedAt: "2026-01-01T00:00:00Z"})
	}
	a := AssembleFor(nil, entries, 200, Scope{Project: "/p/.git"})
	in, budget := 0, 0
	for _, it := range a.Receipt {
		switch it.LeftOut {
		case "":
			in++
		case "budget":
			budget++
		}
	}
	if in == 0 || budget == 0 || in+budget != 50 || a.Metadata.EstimatedTokens > 200 {
		t.Errorf("in %d, left for the budget %d, tokens %d", in, budget, a.Metadata.EstimatedTokens)
	}
}

// TestStale checks procedures against the repository: a removed script, a
// gone Makefile target, a deleted script file or directory are stale; what
// exists is not, and a project not on this machine is not checked.
func TestStale(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"scripts":{"build":"next build","test":"vitest"}}`)
	write("Makefile", "check: lint test\n\tgo vet ./...\nlint:\n\tgolangci-lint run\n")
	write("scripts/seed.sh", "#!/bin/sh\n")
	write("go.mod", "module x\n")
	proj := filepath.Join(root, ".git")
	entry := func(id, key string) learn.Entry {
		return learn.Entry{ID: id, Type: learn.Procedure, Content: key, Project: proj, Observed: &learn.Observed{Key: key}}
	}
	entries := []learn.Entry{
		entry("build", "procedure:build::pnpm build"),
		entry("npm-test", "procedure:test::npm test"),
		entry("lint-script", "procedure:lint::pnpm run lint"),
		entry("install", "procedure:deps::pnpm install"),
		entry("make-check", "procedure:check::make check"),
		entry("make-release", "procedure:build::make release"),
		entry("seed", "procedure:script::./scripts/seed.sh"),
		entry("gone-script", "procedure:script::./scripts/reset.sh"),
		entry("gone-dir", "procedure:build:web:pnpm build"),
		entry("mix", "procedure:test::mix test"),
		entry("go", "procedure:test::go test ./..."),
		entry("fix", "fix:test::npm test=>pnpm test"),
		{ID: "elsewhere", Type: learn.Procedure, Project: "/no/such/dir/.git", Observed: &learn.Observed{Key: "procedure:test::mix test"}},
	}
	got := Stale(entries)
	want := map[string]string{
		"lint-script":  "package.json has no script lint",
		"make-release": "Makefile has no target release",
		"gone-script":  "./scripts/reset.sh is gone",
		"gone-dir":     "the directory web is gone",
		"mix":          "mix.exs is gone",
	}
	if len(got) != len(want) {
		t.Errorf("stale: got %v, want %v", got, want)
	}
	for id, why := range want {
		if got[id] != why {
			t.Errorf("%s: got %q, want %q", id, got[id], why)
		}
	}
}
