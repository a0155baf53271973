package redact

import (
	"encoding/json"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
// text the prefilters let skip the rules is text the rules leave unchanged,
// as a string and, when it is JSON, as JSON.
func checkPrefilter(t *testing.T, s string) {
	t.Helper()
	if got, want := mayHaveSecret(s), anyHint(s); got != want {
		t.Fatalf("mayHaveSecret(%q) = %v, want %v", s, got, want)
	}
	if !mayHaveSecret(s) {
		if out := applyRules(s); out != s {
			t.Fatalf("the prefilter skips %q but the rules change it to %q", s, out)
		}
	}
	if len(s) > 0 && !jsonMayHaveSecret([]byte(s)) {
		if out := redactJSON(json.RawMessage(s), applyRules); string(out) != s {
			t.Fatalf("the JSON prefilter skips %s but the rules change it to %s", s, out)
		}
	}
}

// foldQuirks are texts that spell a rule's word with the Kelvin sign K
// (U+212A) or the long s ſ (U+017F), which RE2's (?i) matches as k and s
// but the hints, found in ASCII-lower-cased text, do not.
var foldQuirks = []string{
	"to\u212aen abc12345def", "the pa\u017f\u017fword is hunter22", "my api \u212aey is abc12345",
	"PA\u017f\u017fWORD=hunter22", "api_\u212aey = 'abc12345'", "Authorization: ba\u017fic dXNlcjpwYXNzd29yZA==",
	"{\"to\u212aen\":\"abc12345def\"}", "{\"client\u017fecret\":\"s3cr3t-value\"}", `{"to\u212aen":"abc12345def"}`,
}

func TestPrefilter(t *testing.T) {
	cases := []string{"", "a", "sk", "SK-", "Sk-Ant-x", "we keep functions small", "the KEY", "Token", "x://y",
		"-----BEGIN ", "<PRIVATE>", "github_PAT_", "aKiA", "eyJ", "\xffpass", "pw", "p\u00e4ss", "API", "\rissue",
		`{"toolName":"paige_get_buffer","n":1}`, `{"m":"\u003cprivate\u003ex"}`, `{"u":"hooks.slack.com\/services\/T0\/B0\/abcdefghijklmnop"}`}
	cases = append(cases, foldQuirks...)
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
	if jsonMayHaveSecret(benchPayload) {
		t.Errorf("the action payload %s goes through the rules", benchPayload)
	}
}

// TestFoldASCII: a rule's word spelled with K or ſ is no match for any
// rule (docs/redaction.md, "Case"), so the prefilter, which sees no hint
// in it, skips nothing a rule would have matched.
func TestFoldASCII(t *testing.T) {
	rules := rules()
	for _, s := range foldQuirks {
		for i := range rules {
			for at := range s {
				if rules[i].re.MatchString(s[at:]) {
					t.Errorf("rule %s matches %q at %d", rules[i].re, s, at)
				}
			}
		}
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
		if got := string(JSON(json.RawMessage(s))); got != s {
			t.Errorf("JSON(%s) = %s", s, got)
		}
	}
	// The same words in ASCII are secrets.
	for _, s := range []string{"token abc12345def", "the password is hunter22", "my api key is abc12345",
		"PASSWORD=hunter22", "Authorization: basic dXNlcjpwYXNzd29yZA==", `{"token":"abc12345def"}`} {
		if String(s) == s || string(JSON(json.RawMessage(s))) == s {
			t.Errorf("%q is not redacted", s)
		}
	}
}

// TestHintsFromRegexp ties the hints to the rules: each rule has hints,
// and every match of its regexp starts with one of them (after the name
// characters the rule moves back over), derived from the regexp with
// regexp/syntax, so a rule whose hints do not cover where it can start
// (which the prefilter and the rule's own scan would then skip) fails.
func TestHintsFromRegexp(t *testing.T) {
	for _, r := range rules() {
		if len(r.hints) == 0 || len(r.hints) > maxHints {
			t.Errorf("rule %s has %d hints, want 1 to %d", r.re, len(r.hints), maxHints)
		}
		for _, h := range r.hints {
			if len(h) < 2 || asciiLower(h) != h {
				t.Errorf("rule %s: hint %q must be lower case, 2 bytes or more", r.re, h)
			}
		}
		re, err := syntax.Parse(r.re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		seq := flatten(re)
		for len(seq) > 0 && (seq[0].Op == syntax.OpBeginText || r.back != nil && onlyBack(seq[0], r.back)) {
			seq = seq[1:]
		}
		starts := prefixes(&syntax.Regexp{Op: syntax.OpConcat, Sub: seq})
		for _, p := range starts {
			if !slices.ContainsFunc(r.hints, func(h string) bool { return strings.HasPrefix(p, h) }) {
				t.Errorf("rule %s can start with %q, which no hint in %q covers", r.re, p, r.hints)
			}
		}
		for _, h := range r.hints {
			if !slices.ContainsFunc(starts, func(p string) bool { return strings.HasPrefix(p, h) }) {
				t.Errorf("rule %s: hint %q starts no match", r.re, h)
			}
		}
	}
}

// flatten returns the sequence of nodes re matches, captures and nested
// concatenations opened.
func flatten(re *syntax.Regexp) []*syntax.Regexp {
	if re.Op != syntax.OpConcat && re.Op != syntax.OpCapture {
		return []*syntax.Regexp{re}
	}
	var seq []*syntax.Regexp
	for _, sub := range re.Sub {
		seq = append(seq, flatten(sub)...)
	}
	return seq
}

// onlyBack reports whether re matches only characters back accepts (the
// name before a hint, which the rule moves back over).
func onlyBack(re *syntax.Regexp, back func(byte) bool) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return onlyBack(re.Sub[0], back)
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if c >= utf8.RuneSelf || !back(byte(c)) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// maxStarts bounds the strings fixed expands a node into.
const maxStarts = 512

// fixed returns every string re matches, ASCII-lower-cased, when they are
// few (literals, small classes, their alternations and sequences): a
// case-folded literal is expanded into every rune RE2 folds it with (K,
// ſ). ok is false otherwise.
func fixed(re *syntax.Regexp) (set []string, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginText:
		return []string{""}, true
	case syntax.OpLiteral:
		set = []string{""}
		for _, r := range re.Rune {
			runes := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					runes = append(runes, f)
				}
			}
			set = product(set, strings.Split(string(runes), ""))
		}
		return set, len(set) <= maxStarts
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1] && len(set) <= 8; c++ {
				set = append(set, string(c))
			}
		}
		return set, len(set) <= 8
	case syntax.OpCapture:
		return fixed(re.Sub[0])
	case syntax.OpQuest:
		set, ok = fixed(re.Sub[0])
		return append(set, ""), ok
	case syntax.OpConcat:
		set = []string{""}
		for _, sub := range re.Sub {
			s, ok := fixed(sub)
			if set = product(set, s); !ok || len(set) > maxStarts {
				return nil, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			s, ok := fixed(sub)
			if set = append(set, s...); !ok || len(set) > maxStarts {
				return nil, false
			}
		}
		return set, true
	}
	return nil, false
}

// prefixes returns the strings every match of re starts with, as far as
// they are fixed (ASCII-lower-cased): "" when a match may start with
// anything.
func prefixes(re *syntax.Regexp) []string {
	if set, ok := fixed(re); ok {
		return set
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return prefixes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return prefixes(re.Sub[0])
		}
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			set = append(set, prefixes(sub)...)
		}
		return set
	case syntax.OpConcat:
		set := []string{""}
		for _, sub := range re.Sub {
			s, ok := fixed(sub)
			if !ok {
				return product(set, prefixes(sub))
			}
			set = product(set, s)
		}
		return set
	}
	return []string{""}
}

// product returns every a + b, ASCII-lower-cased as the hints are, once.
func product(as, bs []string) []string {
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, asciiLower(a+b))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// FuzzPrefilterSkipMeansUnchanged checks on random text that the
// prefilter is exactly the hint test and that whenever it says "no hint",
// String and JSON without the prefilter return the input unchanged.
func FuzzPrefilterSkipMeansUnchanged(f *testing.F) {
	for _, tt := range positives {
		f.Add(tt.in)
	}
	for _, tt := range negatives {
		f.Add(tt.in)
	}
	for _, s := range foldQuirks {
		f.Add(s)
	}
	f.Add(benchProse)
	f.Add(string(benchPayload))
	f.Add(`{"m":"\u003cprivate\u003ex"}`)
	f.Fuzz(func(t *testing.T, s string) {
		checkPrefilter(t, s)
	})
}
