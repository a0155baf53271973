package extract

import (
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// rewriteCases are sentences on the edges of Rewrite's regexps.
var rewriteCases = []string{
	"I prefer table-driven tests for handler 7", "i'd rather not", "I would prefer x", "I DON'T LIKE it", "I can't stand x", "hi prefer",
	"I preferx", "xi like", "I  prefer", "Hi, I prefer tabs over spaces.", "I always TDD", "I'D RATHER", "I would like", "i'dprefer",
	"No, that's wrong — use the v2 client in module 1", "no", "nope.  x", "No!that is wrong, use x", "Nope, that's not right; y",
	"That's incorrect. I meant z", "this was WRONG!!", "you're not correct: x", "— x", "---— y", "– z", "I meantx", "no-x", "nox",
	"it's wrong—i meant y", "No, you are wrong", "thats wrong", "No, that's not correct", "that's\twrong:\tx",
	"Let's go with sqlite for cache layer 3", "lets use x", "I've decided to use OTEL.", "ive decided to x", "We'll use pnpm",
	"well done", "x\nlet's go", "so let's  go", "xlet's go", "we're going with tokio", "I'll go with y", "we decided to", "let's",
	"please make sure to run x", "Please  x", "pleasex", "PLEASE\tdo", "please", "ſtop it", "I prefer ſ", "No, thaſ wrong", "let'ſ go",
	"K is k", "I \u212a", "é", "\xff", "I ",
}

// FuzzRewriteMatchers checks the hand-written matchers of Rewrite against
// its regexps on text without a folding trap, and Rewrite against the
// code it replaced on any text.
func FuzzRewriteMatchers(f *testing.F) {
	for _, s := range rewriteCases {
		f.Add(s, "the previous answer")
	}
	p := patterns()
	f.Fuzz(func(t *testing.T, s, prev string) {
		if !foldTrap(s) {
			verb, end, ok := matchPref(s)
			if loc := p.pref.FindStringSubmatchIndex(s); ok != (loc != nil) || ok && !slices.Equal([]int{end, verb, end}, loc[1:4]) {
				t.Fatalf("matchPref(%q) = %d, %d, %v; regexp %v", s, verb, end, ok, loc)
			}
			if got, want := s[corrLeadLen(s):], p.corrLead.ReplaceAllString(s, ""); got != want {
				t.Fatalf("corrLead of %q: %q, regexp %q", s, got, want)
			}
			start, phraseEnd, end, ok := matchDecide(s)
			if loc := p.decide.FindStringSubmatchIndex(s); ok != (loc != nil) || ok && !slices.Equal([]int{end, start, phraseEnd}, loc[1:4]) {
				t.Fatalf("matchDecide(%q) = %d, %d, %d, %v; regexp %v", s, start, phraseEnd, end, ok, loc)
			}
			if got, want := s[pleaseLen(s):], p.please.ReplaceAllString(s, ""); got != want {
				t.Fatalf("please of %q: %q, regexp %q", s, got, want)
			}
		} else if !strings.ContainsRune(s, 'ſ') && !strings.ContainsRune(s, '\u212a') {
			t.Fatalf("foldTrap(%q) without ſ or K", s)
		}
		for _, typ := range learn.KnowledgeTypes {
			if got, want := Rewrite(typ, s, prev), oracleRewrite(typ, s, prev); got != want {
				t.Fatalf("Rewrite(%s, %q, %q) = %q, oracle %q", typ, s, prev, got, want)
			}
		}
	})
}

// TestRewriteMatchers runs the edge cases of FuzzRewriteMatchers through
// Rewrite and the code it replaced.
func TestRewriteMatchers(t *testing.T) {
	for _, s := range rewriteCases {
		for _, typ := range learn.KnowledgeTypes {
			if got, want := Rewrite(typ, s, "prev"), oracleRewrite(typ, s, "prev"); got != want {
				t.Errorf("Rewrite(%s, %q) = %q, oracle %q", typ, s, got, want)
			}
		}
	}
}

// oracleRewrite is Rewrite as it was, every pattern a regexp.
func oracleRewrite(typ learn.KnowledgeType, s, prev string) string {
	s = strings.TrimSpace(straightQuotes(s))
	switch typ {
	case learn.Preference:
		if loc := patterns().pref.FindStringSubmatchIndex(s); loc != nil {
			verb := strings.ToLower(s[loc[2]:loc[3]])
			rest := trimEnd(s[loc[1]:])
			if verb == "always" || verb == "never" || verb == "usually" {
				rest = thirdPerson(rest)
			}
			return "User " + prefVerb[verb] + " " + rest
		}
	case learn.Correction:
		rest := trimEnd(patterns().corrLead.ReplaceAllString(s, ""))
		if rest == "" {
			if prev = strings.TrimSpace(prev); prev == "" {
				return ""
			}
			if len(prev) > 160 {
				prev = cut(prev, 160) + "…"
			}
			return `User rejected the assistant's answer: "` + prev + `"`
		}
		return "Correction: " + rest
	case learn.Decision:
		if loc := patterns().decide.FindStringSubmatchIndex(s); loc != nil {
			phrase := strings.ToLower(s[loc[2]:loc[3]])
			rest := trimEnd(s[loc[1]:])
			if strings.HasSuffix(phrase, "with") {
				return "Decided to go with " + rest
			}
			return "Decided to " + rest
		}
	case learn.Rule:
		s = patterns().please.ReplaceAllString(s, "")
	}
	return sentenceCase(trimEnd(s))
}
