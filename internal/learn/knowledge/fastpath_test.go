package knowledge

import (
	"slices"
	"testing"
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
