package redact

import (
	"strings"
	"testing"
)

// anyHint is the prefilter's definition: some hint of some rule occurs in
// the lower-cased text.
func anyHint(s string) bool {
	lower := asciiLower(s)
	rules := rules()
	for i := range rules {
		for _, h := range rules[i].hints {
			if strings.Contains(lower, h) {
				return true
			}
		}
	}
	return false
}

// checkPrefilter asserts that mayHaveSecret is exactly anyHint, and that
// text it lets skip the rules is text every rule leaves unchanged.
func checkPrefilter(t *testing.T, s string) {
	t.Helper()
	if got, want := mayHaveSecret(s), anyHint(s); got != want {
		t.Fatalf("mayHaveSecret(%q) = %v, want %v", s, got, want)
	}
	if !mayHaveSecret(s) {
		if out := pass(s); out != s {
			t.Fatalf("prefilter skips %q but the rules change it to %q", s, out)
		}
	}
}

func TestPrefilter(t *testing.T) {
	cases := []string{"", "a", "sk", "SK-", "Sk-Ant-x", "we keep functions small", "the KEY", "Token", "x://y",
		"-----BEGIN ", "<PRIVATE>", "github_PAT_", "aKiA", "eyJ", "\xffpass", "pw", "p\u00e4ss", "API"}
	for _, tt := range positives {
		cases = append(cases, tt.in)
	}
	for _, tt := range negatives {
		cases = append(cases, tt.in)
	}
	for _, s := range cases {
		checkPrefilter(t, s)
	}
	rules := rules()
	for i := range rules {
		for _, h := range rules[i].hints {
			for _, s := range []string{h, strings.ToUpper(h), "x" + h + "y", h[:len(h)-1]} {
				checkPrefilter(t, s)
			}
			if !mayHaveSecret("text " + strings.ToUpper(h) + " text") {
				t.Errorf("hint %q upper-cased in text is missed", h)
			}
		}
	}
	if mayHaveSecret(benchProse) {
		t.Error("prose without hints goes through the rules")
	}
}

// FuzzPrefilter checks on random text that the prefilter is exactly the
// hint test and that whatever it skips, the rules would not have changed.
func FuzzPrefilter(f *testing.F) {
	for _, tt := range positives {
		f.Add(tt.in)
	}
	for _, tt := range negatives {
		f.Add(tt.in)
	}
	f.Add(benchProse)
	f.Fuzz(func(t *testing.T, s string) {
		checkPrefilter(t, s)
		if !mayHaveSecret(s) && String(s) != s {
			t.Fatalf("String changed %q, which has no hint", s)
		}
	})
}
