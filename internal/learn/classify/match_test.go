package classify

import (
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

// ruleMatchers pairs each hand-written matcher with the regexp it stands
// in for.
func ruleMatchers() map[string]struct {
	fast func(string) bool
	re   *regexp.Regexp
} {
	p := compiled()
	rule := func(name string) Rule {
		for _, r := range append(p.rules, p.refusal...) {
			if r.Name == name {
				return r
			}
		}
		panic(name)
	}
	instead := func(s string) bool {
		if m, ok := matchInstead(s); ok {
			return m
		}
		return rule("instead").Re.MatchString(s)
	}
	return map[string]struct {
		fast func(string) bool
		re   *regexp.Regexp
	}{
		"preference":   {matchPreference, rule("preference").Re},
		"conditional":  {matchConditional, rule("preference").Unless},
		"correction":   {matchCorrection, rule("correction").Re},
		"policy":       {matchPolicy, rule("policy").Re},
		"imperative":   {matchImperative, rule("imperative").Re},
		"durable":      {matchDurable, rule("durable").Re},
		"decision":     {matchDecision, rule("decision").Re},
		"transient":    {matchTransient, p.transient},
		"instead":      {instead, rule("instead").Re},
		"refusal":      {matchRefusal, rule("refusal").Re},
		"question":     {matchQuestion, p.quest},
		"greeting":     {matchGreeting, p.greeting},
		"confirmation": {matchConfirmation, p.confirmation},
	}
}

// matcherCases are sentences on the edges of the rules' regexps.
var matcherCases = []string{
	"i prefer table-driven tests", "i'd rather not", "i would prefer x", "i dont like it", "i can't stand", "hi prefer", "i preferx", "xi like",
	"if i want", "when\ti", "whenever  i x", "in case i", "in  case i", "once ix", "unless i'm", "if i",
	"no, that's wrong — use the v2 client", "no", "no x", "nope. x", "no.x", "no  ", "nox y", "no,\tx", "no!", "not what i asked", "not what i",
	"that's incorrect", "thats incorrect!", "incorrect", "incorrectly", "that's  incorrect", "this is not right", "you are   wrong",
	"it's not what i", "wrong file", "wrong files", "i meant it", "i said so", "its wrong",
	"we always run tests", "we dont x", "our standard is", "our api must be fast", "our api  v2 must x", "our a b c must", "our x must",
	"our x,y must", "our x needs to", "our x have to", "our x musts", "our", "our x ", "our x  ", "don't use it", "dont ever",
	"never push to main", "please never x", "please  always run", "make sure to x", "make sure you x", "remember to x", "always 1", "never",
	"from now on", "going forward", "starting now, x", "from here on", "fromnow on",
	"let's go with sqlite", "lets use x", "i've decided", "ive decided", "we'll use", "we'ra going", "we're going with", "i'll go with",
	"don't stop until the tests pass", "never stop", "never stop.!", "never stop .", "please don't give up before", "always quit x",
	"don't do that now", "not now(", "now(", "for this pr", "for this prx", "yet", "not yet.", "yet,", "yetx", "never mind", "don't mind me",
	"right now", "today!", "tonight x", "at the moment", "for the moment(",
	"use zod instead of yup", "use x instead", "use x instead.", "use x instead!!", "use x, not y", "use x; and not the y.", "use x,not y",
	"use x, not the", "use x, not", "use x, not y z", "please just use x rather than y", "use\nx instead", "use x\ninstead", "use é instead",
	"use xinstead", "use x rather thanx", "just use x, and  not  the  y!", "use", "use ", "use  x",
	"use uv", "don't touch app.tsx", "no, use x", "no use x", "please just no. don't x", "do not  x", "nouse x",
	"what is it", "whatever", "who", "whose x", "howdy", "what's up", "whats up doc", "good morning", "good mornings", "hi", "hix", "sup?",
	"ok", "ok.", "ok .", "ok..", "okay!", "got it", "thank you?", "k", "go ahead", "continue\n", "nope!", "yes yes", "",
	"\xff", "é", "i\xffprefer", "ı prefer", "ſtarting now",
}

// FuzzRuleMatchers checks every hand-written matcher against its regexp.
func FuzzRuleMatchers(f *testing.F) {
	for _, s := range matcherCases {
		f.Add(s)
	}
	matchers := ruleMatchers()
	f.Fuzz(func(t *testing.T, s string) {
		for name, m := range matchers {
			if got, want := m.fast(s), m.re.MatchString(s); got != want {
				t.Fatalf("%s(%q) = %v, regexp %v", name, s, got, want)
			}
		}
	})
}

// TestRuleMatchers runs the edge cases of FuzzRuleMatchers as a table.
func TestRuleMatchers(t *testing.T) {
	for name, m := range ruleMatchers() {
		for _, s := range matcherCases {
			if got, want := m.fast(s), m.re.MatchString(s); got != want {
				t.Errorf("%s(%q) = %v, regexp %v", name, s, got, want)
			}
		}
	}
}

// FuzzAnalyzeOracle checks Analyze (hand-written matchers, sentences
// lower-cased once per turn) and Sentences against the code they replaced
// (oracle_test.go), on plain and interrupted turns.
func FuzzAnalyzeOracle(f *testing.F) {
	for _, s := range append(matcherCases, "I prefer tabs. No, that's wrong — use the v2 client!\nNever push to main. What now?",
		"To release:\n1. Always run make test\n2. Tag it\nWe always use pnpm. Don't stop until it passes.",
		"  \u00a0Ok \u2028 I prefer x.\u0085 we use y ", "@remember we use pnpm", "@forget the DB port", "Hello there") {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, interrupted bool) {
		turn := learn.Turn{Role: learn.User, Content: s, Interrupted: interrupted}
		got, want := Analyze(turn), oracleAnalyze(turn)
		if diff := cmp.Diff(summary(want), summary(got)); diff != "" {
			t.Fatalf("Analyze(%q, interrupted %v) (-oracle +got):\n%s", s, interrupted, diff)
		}
		if got, want := Sentences(s), oracleSentences(s); !slices.Equal(got, want) {
			t.Fatalf("Sentences(%q) = %q, oracle %q", s, got, want)
		}
	})
}

// summary is an analysis without its rules' functions: the rule of each
// signal by name.
func summary(a Analysis) any {
	type signal struct{ Rule, Sentence string }
	var sigs []signal
	for _, s := range a.Signals {
		sigs = append(sigs, signal{s.Rule.Name, s.Sentence})
	}
	return struct {
		C       learn.Classification
		P       []Procedure
		S       []signal
		FactCue bool
	}{a.Classification, a.Procedures, sigs, a.FactCue}
}
