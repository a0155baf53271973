// Package classify decides which conversation turns carry something worth
// learning. It is a pure function of the turn: an ordered list of patterns
// ([Rules]), the plan's gatekeeper patterns improved where they misfire on
// real sessions. [Analyze] finds everything in one pass over the turn's
// text; [Classify] and the heuristic extractor both use it.
//
// # Order
//
//  1. Only user turns can be signals; empty turns are noise, and so are
//     sidechain "user" turns (a subagent's prompt is written by Claude).
//  2. "@remember …" and "@forget …" are explicit commands and always win.
//  3. Short greetings and bare confirmations are noise.
//  4. A list of two or more ordered steps (numbered, or bulleted and
//     opening with "first"; see [Procedures]) makes a procedure, whatever
//     its steps say: "To release: 1. Always run make test 2. Tag the
//     commit" is one procedure, not a rule.
//  5. Each sentence is matched against the rules in order ([RefusalRules]
//     first on a turn that follows an interruption or a refused tool call,
//     then [Rules]: preference, correction, policy, decision, "instead");
//     the first rule that matches any sentence decides. Questions never
//     match a rule ("What am I doing wrong?" is not a correction), and a
//     rule's Unless pattern vetoes conditionals ("If I want to deploy, …"
//     is not a preference) and instructions about the task at hand
//     ("Don't stop until the tests pass", "Don't do that now", "Never
//     mind").
//  6. A substantial message (over 50 characters) that is not only
//     questions is factual; everything else is noise.
package classify

import (
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Signal is a sentence of a message that matched a [Rule].
type Signal struct {
	Rule     Rule
	Sentence string
}

// Analysis is what the classifier finds in one turn.
type Analysis struct {
	// Classification is the turn's verdict (see the package doc).
	Classification learn.Classification
	// Procedures are the turn's lists of steps, in text order.
	Procedures []Procedure
	// Signals are the sentences outside the lists that match a rule, in
	// text order, each with the first rule it matches.
	Signals []Signal
	// FactCue is set on a factual turn that states something about the
	// project (see [Candidate]).
	FactCue bool
}

// Analyze classifies turn and collects its procedures and signal
// sentences, reading its [Bound] prefix once.
func Analyze(turn learn.Turn) Analysis {
	noise := func(pattern string, conf float64) Analysis {
		return Analysis{Classification: learn.Classification{Type: learn.SignalNoise, Pattern: pattern, Confidence: conf}}
	}
	if turn.Role != learn.User {
		return noise("", 1)
	}
	if turn.Sidechain {
		return noise("sidechain", 1)
	}
	text := normalize(Bound(turn.Content))
	if text == "" {
		return noise("", 1)
	}
	p := compiled()
	lt := lower(text)
	if lt[0] == '@' {
		if m := p.command.FindStringSubmatchIndex(lt); m != nil {
			t := learn.SignalRemember
			if lt[m[2]:m[3]] == "forget" {
				t = learn.SignalForget
			}
			rest := strings.TrimSpace(text[m[1]:])
			return Analysis{Classification: learn.Classification{Type: t, Pattern: "@" + lt[m[2]:m[3]], Confidence: 1, Match: rest}}
		}
	}
	if len(lt) < 30 && p.greeting.MatchString(lt) {
		return noise("greeting", 0.95)
	}
	if len(lt) < 40 && p.confirmation.MatchString(lt) {
		return noise("confirmation", 0.95)
	}
	var a Analysis
	rest := text
	a.Procedures, rest = Procedures(text)
	rules := ruleList(p.rules)
	if turn.Interrupted {
		rules = append(ruleList(p.refusal[:len(p.refusal):len(p.refusal)]), p.rules...)
	}
	sc := scanSentences(rest, rules)
	a.Signals = sc.signals
	switch {
	case len(a.Procedures) > 0:
		a.Classification = learn.Classification{Type: learn.SignalProcedure, Pattern: "steps", Confidence: 0.7, Match: a.Procedures[0].String()}
	case sc.best >= 0:
		s := a.Signals[sc.best]
		a.Classification = learn.Classification{Type: s.Rule.Type, Pattern: s.Rule.Name, Confidence: s.Rule.Confidence, Match: s.Sentence}
	case len(text) > 50 && !sc.onlyQuestions():
		a.Classification = learn.Classification{Type: learn.SignalFactual, Confidence: 0.5}
		a.FactCue = hasFactCue(sc.lowered)
	case sc.onlyQuestions():
		a.Classification = learn.Classification{Type: learn.SignalNoise, Pattern: "question", Confidence: 0.6}
	default:
		a.Classification = learn.Classification{Type: learn.SignalNoise, Confidence: 0.6}
	}
	return a
}

// sentenceScan is what one pass over a text's sentences found.
type sentenceScan struct {
	signals              []Signal
	best                 int      // index in signals of the one whose rule comes first; -1 for none
	questions, sentences int      // counts
	lowered              []string // the sentences, lower-cased
}

func (s sentenceScan) onlyQuestions() bool { return s.sentences > 0 && s.questions == s.sentences }

// scanSentences matches each sentence of text that is not a question
// against rules, in order, keeping the first rule that matches it.
func scanSentences(text string, rules ruleList) sentenceScan {
	sc := sentenceScan{best: -1}
	for _, s := range Sentences(text) {
		sc.sentences++
		ls := lower(s)
		sc.lowered = append(sc.lowered, ls)
		if isQuestion(ls) {
			sc.questions++
			continue
		}
		for i, r := range rules {
			if r.match(ls) {
				sc.signals = append(sc.signals, Signal{Rule: r, Sentence: s})
				if sc.best < 0 || i < rules.index(sc.signals[sc.best].Rule) {
					sc.best = len(sc.signals) - 1
				}
				break
			}
		}
	}
	return sc
}

// ruleList is an ordered list of rules.
type ruleList []Rule

func (l ruleList) index(r Rule) int {
	for i, x := range l {
		if x.Name == r.Name {
			return i
		}
	}
	return len(l)
}

// Classify returns the signal found in turn; see the package doc for the
// order of checks.
func Classify(turn learn.Turn) learn.Classification { return Analyze(turn).Classification }

// Signals returns every sentence of text (of its [Bound] prefix) that
// matches one of [Rules], in text order, each with the first rule it
// matches. Lists of steps are not set apart: see [Analyze] for that.
func Signals(text string) []Signal {
	var out []Signal
	for _, s := range Sentences(normalize(Bound(text))) {
		ls := lower(s)
		if isQuestion(ls) {
			continue
		}
		for _, r := range Rules() {
			if r.match(ls) {
				out = append(out, Signal{Rule: r, Sentence: s})
				break
			}
		}
	}
	return out
}

// IsSignal reports whether c is anything but noise.
func IsSignal(c learn.Classification) bool { return c.Type != learn.SignalNoise }

// FilterSignal returns the turns of turns that are signals, in order.
func FilterSignal(turns []learn.Turn) []learn.Turn {
	var out []learn.Turn
	for _, t := range turns {
		if IsSignal(Classify(t)) {
			out = append(out, t)
		}
	}
	return out
}

// IsQuestion reports whether the sentence s asks something: it ends with a
// question mark or opens with an interrogative word.
func IsQuestion(s string) bool { return isQuestion(lower(strings.TrimSpace(s))) }

// isQuestion is [IsQuestion] on a trimmed, lower-cased sentence.
func isQuestion(ls string) bool {
	return strings.HasSuffix(ls, "?") || compiled().quest.MatchString(ls)
}

// normalize trims text and turns typographic apostrophes into ASCII ones.
func normalize(s string) string {
	if strings.Contains(s, "\u2019") || strings.Contains(s, "\u2018") {
		s = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(s)
	}
	return strings.TrimSpace(s)
}

// Sentences splits text at line breaks and at '.', '!' or '?' followed by
// a space, keeping the terminator. Empty pieces are dropped. Text in
// backquotes is never split, and neither is a path pattern whose dots
// follow a slash ("go test ./... before committing" is one sentence).
func Sentences(text string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	code := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			code = false
			add(i)
		case c == '`':
			code = !code
		case code:
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ') && !pathDots(text, i):
			add(i + 1)
		}
	}
	add(len(text))
	return out
}

// pathDots reports whether the '.' at text[i] ends a run of dots that
// follows a slash: "./...", "pkg/...".
func pathDots(text string, i int) bool {
	if text[i] != '.' {
		return false
	}
	for i > 0 && text[i] == '.' {
		i--
	}
	return text[i] == '/'
}
