package classify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn"
)

// FuzzProcedures checks that any text splits into well-formed procedures
// and a rest no longer than the text, and that Classify never panics.
func FuzzProcedures(f *testing.F) {
	for _, s := range []string{
		"To release: 1. Always run make test 2. Tag the commit 3. Push the tag",
		"Deploy:\n1. build\n   with -trimpath\n2. upload\nNever deploy on Fridays.",
		"- First, build\n- then test\n- Finally, push",
		"Step 1: a\nStep 2: b", "(1) a (2) b.", "1. 2. 3.", "- First,\n- Then", "1.\n", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		procs, rest := Procedures(text)
		if len(rest) > len(text) {
			t.Errorf("rest %q longer than text %q", rest, text)
		}
		for _, p := range procs {
			if len(p.Steps) < 2 {
				t.Errorf("procedure %+v has fewer than two steps", p)
			}
			for _, s := range p.Steps {
				if s == "" || strings.TrimSpace(s) != s || strings.Contains(s, "\n") {
					t.Errorf("bad step %q in %+v", s, p)
				}
			}
			if utf8.ValidString(text) && !utf8.ValidString(p.String()) {
				t.Errorf("procedure %q is not valid UTF-8", p.String())
			}
		}
		_ = Classify(learn.Turn{Role: learn.User, Content: text, Interrupted: true}) // the refusal rules never panic either
		// Classify looks for lists in the text it analyses: bounded, its
		// quotes normalised and trimmed (a leading \f is no line start).
		c := Classify(learn.Turn{Role: learn.User, Content: text})
		if analysed, _ := Procedures(normalize(Bound(text))); c.Type == learn.SignalProcedure && len(analysed) == 0 {
			t.Errorf("Classify found a procedure in %q, Procedures none", text)
		}
	})
}

// FuzzMaybeMarker checks the marker prefilter: whenever the marker regexp
// matches, maybeMarker says so (so skipping the regexp loses nothing).
func FuzzMaybeMarker(f *testing.F) {
	for _, s := range []string{"1. a", "x 2) b", "Step 3: c", "ſtep 4:\tx", "(5) y", "updated f12.go", "12.", "1.\n2. z", "v1.2 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if lists().marker.MatchString(s) && !maybeMarker(s) {
			t.Fatalf("marker matches %q, maybeMarker false", s)
		}
	})
}

// FuzzWithoutDurable checks the shortcut of withoutDurable against the
// regexp replacement it skips.
func FuzzWithoutDurable(f *testing.F) {
	for _, s := range []string{"from now on, always run go vet", "going forward use pnpm", "starting now x", "from here on", "fromnow on", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := withoutDurable(s), compiled().durable.ReplaceAllString(s, ""); got != want {
			t.Fatalf("withoutDurable(%q) = %q, regexp %q", s, got, want)
		}
	})
}
