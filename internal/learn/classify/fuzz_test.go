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
		c := Classify(learn.Turn{Role: learn.User, Content: text})
		if c.Type == learn.SignalProcedure && len(procs) == 0 {
			t.Errorf("Classify found a procedure in %q, Procedures none", text)
		}
	})
}
