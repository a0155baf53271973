package knowledge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

func TestEntities(t *testing.T) {
	for in, want := range map[string][]string{
		"Run eslint before committing":                                  {"eslint"},
		"Always run go vet before committing":                           {"go vet"},
		"Make sure go vet passes before you commit":                     {"go vet"},
		"Never force-push to main":                                      {"force-push", "main"},
		"Never force-push to release branches":                          {"force-push", "release branches"},
		"User prefers pnpm over npm":                                    {"pnpm", "npm"},
		"Decided to go with Clerk for auth":                             {"Clerk"},
		"Correction: use pnpm (instead of `npm install zod`)":           {"npm install zod", "pnpm"},
		"Never commit .env files or data/raw":                           {".env", "data/raw"},
		"Put the helper in internal/testutil, not api.go":               {"internal/testutil", "api.go"},
		"Our components must be function components with named exports": nil,
		"Start the server with iex -S mix phx.server":                   {"iex", "-S", "phx.server"},
		"Set DATABASE_URL before running the TypeScript build":          {"DATABASE_URL", "TypeScript"},
		"Use @xterm/xterm and python3 in CI":                            {"@xterm/xterm", "python3", "CI"},
		"Dedupe by customer_id, e.g. with a 2MB buffer":                 {"customer_id"},
		"Make sure clippy passes with -D warnings before every commit":  {"clippy", "-D"},
		"Releases happen on the first monday of each month":             nil,
	} {
		if diff := cmp.Diff(want, Entities(in)); diff != "" {
			t.Errorf("Entities(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestIsEntity(t *testing.T) {
	for e, want := range map[string]bool{
		"go vet": true, "TypeScript": true, ".env": true, "release branches": true, "Clerk": true, "pnpm": true,
		"src/app.ts": true, "--force": true,
		"committing": false, "passes": false, "best practices": false, "patterns": false, "": false, "the": false,
	} {
		if got := IsEntity(e); got != want {
			t.Errorf("IsEntity(%q) = %v, want %v", e, got, want)
		}
	}
}

// TestDedupByRealEntities is the table with the entities dedup
// finds itself (the entries carry none, or only words that name
// nothing, as older heuristics stored).
func TestDedupByRealEntities(t *testing.T) {
	bare := func(c string, junk ...string) learn.Entry {
		return learn.Entry{Type: learn.Rule, Content: c, Entities: junk, Confidence: 0.8}
	}
	t.Run("eslint is not go vet", func(t *testing.T) {
		if IsDuplicate(bare("Run eslint before committing", "committing"), []learn.Entry{bare("Run go vet before committing", "committing")}) {
			t.Error("eslint rule dropped as a duplicate of the go vet rule")
		}
	})
	t.Run("other branch survives", func(t *testing.T) {
		old, cand := bare("Never force-push to main"), bare("Never force-push to release branches", "release", "branches")
		if IsDuplicate(cand, []learn.Entry{old}) || Supersedes(cand, old) {
			t.Error(`"Never force-push to main" lost to "Never force-push to release branches"`)
		}
	})
	t.Run("refinement still supersedes", func(t *testing.T) {
		if !Supersedes(bare("Never push to main without a review"), bare("Never push to main")) {
			t.Error("refinement does not supersede")
		}
	})
	t.Run("60 per-tool rules stay 60", func(t *testing.T) {
		tools := strings.Fields(`eslint prettier biome stylelint ruff black isort flake8 pylint mypy pyright bandit gofmt gofumpt
			goimports staticcheck golangci-lint govulncheck revive errcheck rustfmt clippy rubocop credo dialyzer sobelow shellcheck
			shfmt hadolint tflint checkov jest vitest mocha cypress playwright pytest tox nox rspec minitest junit nextest tsc vite
			webpack esbuild terraform helm kubectl docker ansible alembic prisma sqlc buf semgrep trivy gitleaks markdownlint`)
		if len(tools) != 60 {
			t.Fatalf("%d tools", len(tools))
		}
		x := NewIndex(nil)
		kept := 0
		for _, tool := range tools {
			e := bare("Always run "+tool+" before committing", "committing")
			if !x.IsDuplicate(e) {
				x.Add(e)
				kept++
			}
		}
		if kept != 60 {
			t.Errorf("kept %d of 60 per-tool rules", kept)
		}
	})
	t.Run("a model's paraphrases collapse", func(t *testing.T) {
		x := NewIndex(nil)
		var kept []string
		for _, c := range []string{"Always run go vet before committing", "Run go vet before every commit",
			"Make sure go vet passes before you commit", "go vet must pass before each commit"} {
			e := bare(c)
			if !x.IsDuplicate(e) {
				x.Add(e)
				kept = append(kept, c)
			}
		}
		if len(kept) != 1 {
			t.Errorf("kept %d paraphrases: %q", len(kept), kept)
		}
	})
}

func BenchmarkEntities(b *testing.B) {
	s := "Correction: use pnpm (instead of `npm install zod`) and never force-push to main; see src/app.ts and DATABASE_URL"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if len(Entities(s)) == 0 {
			b.Fatal("none")
		}
	}
	_ = fmt.Sprint()
}

// FuzzEntities: any text gives at most MaxEntities distinct, non-empty
// entities, each taken from the text.
func FuzzEntities(f *testing.F) {
	for _, s := range []string{"Run `go test ./...` before committing", "Never force-push to main", "use @x/y, python3 and DATABASE_URL", "``", "a b", "\x00`\n`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Entities(s)
		if len(got) > MaxEntities {
			t.Fatalf("%d entities", len(got))
		}
		seen := map[string]bool{}
		for _, e := range got {
			if e == "" || seen[strings.ToLower(e)] {
				t.Fatalf("empty or repeated entity %q in %q", e, got)
			}
			seen[strings.ToLower(e)] = true
			for _, w := range strings.Fields(e) {
				if !strings.Contains(s, w) {
					t.Fatalf("entity %q not in %q", e, s)
				}
			}
		}
	})
}

// TestDedupWithoutEntities: entries that name no known entity are
// duplicates only when they say the same words: a repeat is dropped, a
// rule about an unknown tool is not ("semgrep" and "trivy" are words the
// other lacks).
func TestDedupWithoutEntities(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		dup      bool
	}{
		{"User prefers table-driven tests", "User prefers table-driven tests!", true},
		{"Always run frobnicate before committing", "Always run quuxify before committing", false},
	} {
		o, c := learn.Entry{Type: learn.Rule, Content: tc.old}, learn.Entry{Type: learn.Rule, Content: tc.new}
		if got := IsDuplicate(c, []learn.Entry{o}); got != tc.dup {
			t.Errorf("IsDuplicate(%q, %q) = %v, want %v", tc.new, tc.old, got, tc.dup)
		}
	}
}

// FuzzPairFirsts checks the shortcut of Entities: whenever two words make
// a known name, the first is in pairFirsts (so skipping the pair lookup
// for other words loses nothing).
func FuzzPairFirsts(f *testing.F) {
	for _, p := range [][2]string{{"go", "vet"}, {"Go", "VET"}, {"cargo", "nextest"}, {"a", "b"}, {"\xe2", "x"}, {"GİT", "x"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(strings.Fields(a)) != 1 || len(strings.Fields(b)) != 1 || strings.TrimSpace(a) != a || strings.TrimSpace(b) != b {
			return // Entities pairs words split at white space
		}
		if knownNames()[strings.ToLower(a+" "+b)] && !pairFirsts()[strings.ToLower(a)] {
			t.Fatalf("%q %q is a known name but %q is not in pairFirsts", a, b, a)
		}
	})
}
