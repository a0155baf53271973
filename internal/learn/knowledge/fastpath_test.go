package knowledge

import (
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// shapeCases are words on the edges of the shapes' regexps.
var shapeCases = []string{
	"src/app.ts", "./bin", "../x", "~/.zshrc", "~/a/b", "~a/b", "~~a/b", "/a/", "//a/b", "./", "/", "a/", "/a", "@x/y", "@x/", "@/y", "@x",
	".env", "tsconfig.json", "a.b.json", ".", "..", ".a", "x-y_z.yaml", "x.yml", "x.YML", "é.go", "a.go\n",
	"-D", "--force", "--x=1", "--x=", "-1", "---x", "--a-b_c=d e", "--a=\t", "-x=\xff", "--",
	"phx.server", "a.b.c", "a..b", "a.1b", "A1.b_2", ".a.b", "a.b.",
	"customer_id", "a_", "_a", "a__b", "ab_1_C", "a1_b",
	"2mb", "10%", "v1.2.3", "v", "1.", ".1", "60s", "1st", "v1mb", "12kb", "1x", "01", "1.2.3", "vv1",
}

// FuzzShapes checks each hand-written shape against the regexp it stands
// in for.
func FuzzShapes(f *testing.F) {
	for _, s := range shapeCases {
		f.Add(s)
	}
	shapes := map[string]func(string) bool{"path": isPathShape, "file": isFileShape, "flag": isFlagShape, "scoped": isScopedShape,
		"dotted": isDottedShape, "snake": isSnakeShape, "number": isNumberShape}
	f.Fuzz(func(t *testing.T, w string) {
		for name, match := range shapes {
			if got, want := match(w), oracleShapes()[name].MatchString(w); got != want {
				t.Fatalf("%s shape of %q = %v, regexp %v", name, w, got, want)
			}
		}
	})
}

// TestShapes runs the edge cases of FuzzShapes as a table.
func TestShapes(t *testing.T) {
	for _, w := range shapeCases {
		for name, match := range map[string]func(string) bool{"path": isPathShape, "file": isFileShape, "flag": isFlagShape,
			"scoped": isScopedShape, "dotted": isDottedShape, "snake": isSnakeShape, "number": isNumberShape} {
			if got, want := match(w), oracleShapes()[name].MatchString(w); got != want {
				t.Errorf("%s shape of %q = %v, regexp %v", name, w, got, want)
			}
		}
	}
}

// FuzzEntitiesOracle checks Entities and IsEntity against the code they
// replaced (oracle_test.go).
func FuzzEntitiesOracle(f *testing.F) {
	for _, s := range []string{"Run `go test ./...` before committing", "Never force-push to main", "use @x/y, python3 and DATABASE_URL",
		"Never force-push to release branches", "The Release Branches", "go VET. Go vet", "cargo\u00a0nextest", "GİT push", "K8s and ſrc/app.ts",
		"'TypeScript's x'", "the 'clerk' (Clerk)", "a\xffb c", "Deploy: Clerk! then Stripe? yes: Fly", "x.y.z a_b --f=1 -D v1.2 2mb tool07",
		"1 2 3 4 5 6 7 8 9 10 a1 b1 c1 d1 e1 f1 g1 h1 i1", "go go vet vet", "docker compose up", "make test.", "'s", "''", "x's branch"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Entities(s), oracleEntities(s); !slices.Equal(got, want) {
			t.Fatalf("Entities(%q) = %q, oracle %q", s, got, want)
		}
		if got, want := IsEntity(s), oracleIsEntity(s); got != want {
			t.Fatalf("IsEntity(%q) = %v, oracle %v", s, got, want)
		}
	})
}

// BenchmarkEntitiesOracle is BenchmarkEntities' text through the code
// Entities replaced, for comparison.
func BenchmarkEntitiesOracle(b *testing.B) {
	s := "Correction: use pnpm (instead of `npm install zod`) and never force-push to main; see src/app.ts and DATABASE_URL"
	for b.Loop() {
		oracleEntities(s)
	}
}

// FuzzDedupOracle checks IsDuplicate, Index.AddNew, Supersedes, Jaccard
// and tokens against the code they replaced (oracle_dedup_test.go): word
// sets as maps, and every entity given with an entry compared even when
// its content names it already. Entities are given '|'-separated.
func FuzzDedupOracle(f *testing.F) {
	seeds := [][4]string{
		{"Run go vet before committing", "go vet|committing", "Run eslint before committing", "eslint|committing"},
		{"Never force-push to main", "force-push|main", "Never force-push to release branches", "force-push|release branches"},
		{"Always run go vet before committing", "go|vet|committing", "Make sure go vet passes before you commit", "go|vet|passes|commit"},
		{"Never push to main without a review", "main", "Never push to main", "main"},
		{"User prefers table-driven tests for handler 7", "", "User prefers table-driven tests for handler 0", ""},
		{"Decided to go with sqlite for cache layer 3", "sqlite", "Decided to go with sqlite for cache layer 10", "sqlite|sqlite|SQLite"},
		{"Correction: use the v2 client in module 1", "", "Correction: use the V2 client in module 8!", "v2"},
		{"Never commit .env files...", ".env|...", "Don't commit the .env files to git", ".env|git"},
		{"The staging DB listens on port 5433", "staging", "the staging db listens on 5433", "postgres|5433"},
		{"ſtop K8s", "K8s|ſ", "stop k8s", "k8s"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], false, 0.8)
		f.Add(s[0], s[1], s[2], s[3], true, 0.75)
	}
	f.Fuzz(func(t *testing.T, c, cEnts, o, oEnts string, forgotten bool, conf float64) {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, "|")
		}
		cand := learn.Entry{Type: learn.Rule, Content: c, Entities: split(cEnts), Confidence: conf}
		old := learn.Entry{Type: learn.Rule, Content: o, Entities: split(oEnts), Forgotten: forgotten, Confidence: 0.8}
		for _, existing := range [][]learn.Entry{{old}, {{Type: learn.Fact, Content: o}, old}} {
			if got, want := IsDuplicate(cand, existing), oracleIsDuplicate(cand, existing); got != want {
				t.Fatalf("IsDuplicate(%+v, %+v) = %v, oracle %v", cand, existing, got, want)
			}
			if got, want := NewIndex(existing).AddNew(cand), !oracleIsDuplicate(cand, existing); got != want {
				t.Fatalf("AddNew(%+v) into %+v = %v, oracle %v", cand, existing, got, want)
			}
		}
		x := NewIndex(nil)
		if x.AddNew(old) != true || x.AddNew(cand) != !oracleIsDuplicate(cand, []learn.Entry{old}) {
			t.Fatalf("AddNew after AddNew disagrees with the oracle on %+v, %+v", old, cand)
		}
		named := cand // as the heuristics give it: the entities of its content
		named.Entities = Entities(c)
		if got, want := NewIndex([]learn.Entry{old}).AddNewNamed(named), !oracleIsDuplicate(named, []learn.Entry{old}); got != want {
			t.Fatalf("AddNewNamed(%+v) into %+v = %v, oracle %v", named, old, got, want)
		}
		y := NewIndex(nil)
		if y.AddNewNamed(named) != true || y.AddNew(old) != !oracleIsDuplicate(old, []learn.Entry{named}) {
			t.Fatalf("AddNew after AddNewNamed disagrees with the oracle on %+v, %+v", named, old)
		}
		if got, want := Supersedes(cand, old), oracleSupersedes(cand, old); got != want {
			t.Fatalf("Supersedes(%+v, %+v) = %v, oracle %v", cand, old, got, want)
		}
		if got, want := Jaccard(c, o), oracleJaccard(c, o); got != want {
			t.Fatalf("Jaccard(%q, %q) = %v, oracle %v", c, o, got, want)
		}
		if got, want := tokens(c), oracleTokens(c); !slices.Equal(got, want) {
			t.Fatalf("tokens(%q) = %q, oracle %q", c, got, want)
		}
	})
}
