package knowledge

import "testing"

// FuzzNegated checks the hand-written negation matcher against the regexp
// it stands in for.
func FuzzNegated(f *testing.F) {
	for _, s := range []string{"Never push to main", "don't", "DON'T x", "dont", "don'tx", "can't", "cant", "cannot", "no",
		"know", "nothing", "x_not", "not_x", "Avoid it", "won'T", "shouldn't", "mustn't", "doesn't", "doeſn't", "ſhouldn't",
		"won'", "it's fine", "a-no-b", "NO.", "NEVER"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := negated(s), negation().MatchString(s); got != want {
			t.Fatalf("negated(%q) = %v, regexp %v", s, got, want)
		}
	})
}
