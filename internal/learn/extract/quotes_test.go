package extract

import (
	"strings"
	"testing"
)

// FuzzStraightQuotes checks the shared quote replacer and its shortcut
// against a replacer built for the call, as Rewrite used to.
func FuzzStraightQuotes(f *testing.F) {
	for _, s := range []string{"don’t", "‘x’", "plain", "", "\xe2\x80", "’’‘"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := straightQuotes(s), strings.NewReplacer("’", "'", "‘", "'").Replace(s); got != want {
			t.Fatalf("straightQuotes(%q) = %q, want %q", s, got, want)
		}
	})
}
