package extract

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/classify"
)

// Heuristic extracts knowledge without a model: every user sentence the
// classifier matches becomes one entry (preference, correction, rule,
// decision), a multi-step list becomes one procedure, and "@remember …" is kept
// with confidence 1. Factual turns are left out: without a model there is no
// telling a fact from chatter. Evidence quotes the user's sentence.
// The zero value is ready to use.
type Heuristic struct {
	Now func() time.Time // nil means time.Now
}

var _ Extractor = Heuristic{}

// Name returns "heuristic".
func (Heuristic) Name() string { return "heuristic" }

// Extract implements [Extractor]. It never fails.
func (h Heuristic) Extract(ctx context.Context, turns []learn.Turn, source string) ([]learn.Entry, error) {
	return h.ExtractAnalysed(ctx, turns, analyze(turns), source)
}

// ExtractAnalysed implements [AnalysedExtractor]. It never fails.
func (h Heuristic) ExtractAnalysed(_ context.Context, turns []learn.Turn, analyses []classify.Analysis, source string) ([]learn.Entry, error) {
	var items []Item
	for i, t := range turns {
		if t.Role == learn.User {
			items = append(items, FromAnalysis(t, analyses[i], prevText(turns, i))...)
		}
	}
	return Entries(items, source, h.now()), nil
}

// analyze classifies turns.
func analyze(turns []learn.Turn) []classify.Analysis {
	out := make([]classify.Analysis, len(turns))
	for i, t := range turns {
		out[i] = classify.Analyze(t)
	}
	return out
}

var _ AnalysedExtractor = Heuristic{}

// ruleTypes maps classifier rules to knowledge types.
var ruleTypes = map[string]learn.KnowledgeType{
	"preference": learn.Preference,
	"correction": learn.Correction,
	"policy":     learn.Rule,
	"imperative": learn.Rule,
	"durable":    learn.Rule,
	"decision":   learn.Decision,
	"instead":    learn.Correction,
	"refusal":    learn.Correction,
}

// FromTurn returns the items the heuristics find in one user turn; prev is
// the assistant text the user answered (used when a correction names no
// right answer). See [FromAnalysis].
func FromTurn(t learn.Turn, prev string) []Item { return FromAnalysis(t, classify.Analyze(t), prev) }

// FromAnalysis returns the items of the user turn t, whose analysis is a.
// Each multi-step list of the turn is one procedure (its title and
// numbered steps, the whole turn as evidence) and comes first; then one
// item per signal sentence outside the lists, in text order. Sentences
// inside a list's steps are part of the procedure only. On a turn that
// follows an interruption or a refused tool call, the evidence names the
// call, and a correction that does not say what it replaces gets "(instead
// of <the call>)".
func FromAnalysis(t learn.Turn, a classify.Analysis, prev string) []Item {
	c := a.Classification
	switch c.Type {
	case learn.SignalRemember:
		return remember(c.Match)
	case learn.SignalNoise, learn.SignalFactual, learn.SignalForget:
		return nil
	}
	var out []Item
	for _, p := range a.Procedures {
		content := p.String()
		out = append(out, Item{Type: string(learn.Procedure), Content: content, Confidence: c.Confidence,
			Evidence: evidence(t.Content), Entities: Entities(content)})
	}
	for _, s := range a.Signals {
		typ := ruleTypes[s.Rule.Name]
		content := Rewrite(typ, s.Sentence, prev)
		if content == "" {
			continue
		}
		ev := evidence(s.Sentence)
		if t.Interrupted {
			ev = refusalEvidence(t.Refused, s.Sentence)
			if call := describeCall(t.Refused); typ == learn.Correction && call != "" && !patterns().contrast.MatchString(s.Sentence) {
				content += " (instead of " + call + ")"
			}
		}
		out = append(out, Item{Type: string(typ), Content: content, Confidence: s.Rule.Confidence,
			Evidence: ev, Entities: Entities(content)})
	}
	return out
}

func remember(text string) []Item {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	typ, content := learn.Fact, sentenceCase(trimEnd(text))
	if sig := classify.Signals(text); len(sig) > 0 {
		typ = ruleTypes[sig[0].Rule.Name]
		if c := Rewrite(typ, text, ""); c != "" {
			content = c
		}
	}
	return []Item{{Type: string(typ), Content: content, Confidence: 1, Evidence: evidence("@remember " + text), Entities: Entities(content)}}
}

func evidence(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = cut(s, 300) + "…"
	}
	return `User said: "` + s + `"`
}

// rewrite are the regexps of [Rewrite], compiled on first use.
type rewrite struct {
	pref, corrLead, decide, please, contrast *regexp.Regexp
}

var patterns = sync.OnceValue(func() *rewrite {
	return &rewrite{
		pref:     regexp.MustCompile(`(?i)\bi(?:'d| would)? (prefer|rather|like|love|hate|dislike|always|never|usually|don'?t like|can'?t stand)\b`),
		corrLead: regexp.MustCompile(`(?i)^((no|nope)\b[,.!]?\s*)?((that'?s|this is|it'?s|that is|you'?re|you are|this was|that was)\s+(wrong|incorrect|not (right|correct))\b[,.;:!]?\s*)?([—–-]+\s*)?(i meant\s*)?`),
		decide:   regexp.MustCompile(`(?i)^.*?\b(let'?s|i'?ve decided to|i decided to|we decided to|we'?ll|we chose to|we agreed to|we'?re going with|i'?ll go with)\s+`),
		please:   regexp.MustCompile(`(?i)^please\s+`),
		contrast: regexp.MustCompile(`(?i)\b(instead|not|never|rather than)\b|n't\b`),
	}
})

var prefVerb = map[string]string{"prefer": "prefers", "rather": "would rather", "like": "likes", "love": "loves", "hate": "hates", "dislike": "dislikes",
	"always": "always", "never": "never", "usually": "usually", "don't like": "doesn't like", "dont like": "doesn't like",
	"can't stand": "can't stand", "cant stand": "can't stand"}

// Rewrite turns a classified sentence into an entry's content: first
// person becomes "User …" for preferences, corrections keep the right
// answer ("Correction: use the root tsconfig"), decisions read "Decided to
// …", rules keep their imperative. It returns "" when nothing is left.
func Rewrite(typ learn.KnowledgeType, s, prev string) string {
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

// thirdPerson conjugates the verb opening s for "User always/never …":
// "use X" → "uses X", "push" → "pushes", "try" → "tries".
func thirdPerson(s string) string {
	verb, rest, _ := strings.Cut(s, " ")
	if verb == "" || strings.ToLower(verb) != verb || strings.ContainsFunc(verb, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return s
	}
	switch {
	case verb == "have":
		verb = "has"
	case verb == "do" || verb == "go" || strings.HasSuffix(verb, "s") || strings.HasSuffix(verb, "sh") ||
		strings.HasSuffix(verb, "ch") || strings.HasSuffix(verb, "x") || strings.HasSuffix(verb, "z"):
		verb += "es"
	case len(verb) > 1 && strings.HasSuffix(verb, "y") && !strings.ContainsRune("aeiou", rune(verb[len(verb)-2])):
		verb = verb[:len(verb)-1] + "ies"
	default:
		verb += "s"
	}
	if rest == "" {
		return verb
	}
	return verb + " " + rest
}

// cut returns the longest prefix of s of at most n bytes that does not end
// inside a UTF-8 sequence.
func cut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func trimEnd(s string) string { return strings.TrimRight(strings.TrimSpace(s), ".!;:, ") }

func sentenceCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// quoteReplacer turns typographic single quotes into ASCII ones; built
// once (a strings.Replacer builds its tables on first use).
var quoteReplacer = strings.NewReplacer("’", "'", "‘", "'")

// straightQuotes is s with typographic single quotes made ASCII: s itself
// when it has none.
func straightQuotes(s string) string {
	if !strings.Contains(s, "’") && !strings.Contains(s, "‘") {
		return s
	}
	return quoteReplacer.Replace(s)
}
