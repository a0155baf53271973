// Package classify decides which conversation turns carry something worth
// learning. It is a pure function of the turn text: an ordered list of
// patterns ([Rules]), the plan's gatekeeper patterns improved where they
// misfire on real sessions.
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
//  5. Each sentence is matched against [Rules] in order (preference,
//     correction, policy, decision); the first rule that matches any
//     sentence decides. Questions never match a rule ("What am I doing
//     wrong?" is not a correction), and a rule's Unless pattern vetoes
//     conditionals ("If I want to deploy, …" is not a preference) and
//     instructions about the task at hand ("Don't stop until the tests
//     pass", "Don't do that now", "Never mind").
//  6. A substantial message (over 50 characters) that is not only
//     questions is factual; everything else is noise.
package classify

import (
	"regexp"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Rule is one signal pattern. A sentence matches when Re matches and Unless
// (if set) does not; Unless is tested on the sentence with the durable
// markers "from now on", "going forward" and "starting now" removed, so it
// can veto "now" without vetoing "From now on, always run go vet".
type Rule struct {
	Name       string
	Type       learn.SignalType
	Confidence float64
	Re         *regexp.Regexp
	Unless     *regexp.Regexp
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + s) }

// Rules are the sentence patterns in the order they are tried.
//
// Changes from the plan: "I want" is a request, not a preference, and a
// conditional ("if/when I …") vetoes a preference; "wrong" alone is not a
// correction (it must be said of the assistant's work: "that's wrong",
// "wrong file"); imperative rules ("Never push to main", "Always run the
// linter", "Do not commit .env") are policies unless they only steer the
// task at hand ([transient]); more decision phrasings.
var Rules = []Rule{
	{Name: "preference", Type: learn.SignalPreference, Confidence: 0.8,
		Re:     re(`\bi (prefer|like|love|hate|dislike|always|never|usually|don'?t like|can'?t stand)\b`),
		Unless: re(`\b(if|when|whenever|unless|whether|once|in case)\s+i\b`)},
	{Name: "correction", Type: learn.SignalCorrection, Confidence: 0.8,
		Re: re(`^(no|nope)\b[,.!]?\s+\S|\b(that'?s|this is|it'?s|that is|you'?re|you are|this was|that was)\s+(wrong|incorrect|not (right|correct|what i))|\bi meant\b|\bnot what i (asked|meant|wanted|said)|\bi said\b|\bwrong (file|one|place|function|directory|branch|command|version|approach)\b|^(that'?s )?incorrect\b`)},
	{Name: "policy", Type: learn.SignalPolicy, Confidence: 0.8,
		Re:     re(`\bwe (always|never|should|must|don'?t|do not)\b|\bour (standard|convention|policy|rule|style)\b|\bdon'?t (ever|use)\b`),
		Unless: transient},
	{Name: "imperative", Type: learn.SignalPolicy, Confidence: 0.75,
		Re:     re(`^(please\s+)?(always|never|don'?t|do not|make sure (to|you)|remember to)\s+[a-z]`),
		Unless: transient},
	{Name: "decision", Type: learn.SignalDecision, Confidence: 0.8,
		Re: re(`\blet'?s (go with|use|choose|pick|stick with|switch to)\b|\bi'?ve decided\b|\bi decided\b|\bwe'?ll use\b|\bwe (decided|chose|agreed)\b|\bthe decision is\b|\bwe'?re going with\b|\bi'?ll go with\b`)},
}

// transient matches an imperative that steers only the task at hand, not
// how the user always works: a "keep going" order ("Don't stop until the
// tests pass", "Never give up"), a time limited to now ("Don't do that now",
// "Don't merge yet", "Skip the linter this time", "for now", "today"), and
// "never mind" / "don't mind …". A condition alone is not transient: "Never
// merge until CI is green" stays a rule.
var transient = re(`^(please\s+)?(always|never|don'?t|do not)\s+(stop|quit|give up|halt|pause|finish|rest)\b\s*(until|till|unless|before|[.!]*$)` +
	`|\b(right now|for now|now|this time|today|tonight|for the moment|at the moment|for this (task|session|one|pr|change))\b([^(]|$)|\byet([.!,;]|$)` +
	`|^(please\s+)?(never|don'?t|do not)\s+mind\b`)

// durable matches the markers that make an instruction explicitly lasting.
var durable = re(`\b(from now on|going forward|starting now|from here on)\b`)

var (
	greetingRe     = re(`^(hi|hello|hey|good (morning|afternoon|evening)|howdy|sup|what'?s up)\b`)
	confirmationRe = re(`^(ok|okay|k|got it|sure|thanks|thank you|ty|great|yes|no|yep|nope|alright|understood|roger|ack|cool|nice|perfect|go ahead|continue)\s*[.!?]?$`)
	commandRe      = re(`^@(remember|forget)\b[:\s]*`)
	questionRe     = re(`^(what|why|how|where|which|who|whose)\b`)
)

// Classify returns the signal found in turn; see the package doc for the
// order of checks.
func Classify(turn learn.Turn) learn.Classification {
	if turn.Role != learn.User {
		return learn.Classification{Type: learn.SignalNoise, Confidence: 1}
	}
	if turn.Sidechain {
		return learn.Classification{Type: learn.SignalNoise, Pattern: "sidechain", Confidence: 1}
	}
	text := normalize(Bound(turn.Content))
	if text == "" {
		return learn.Classification{Type: learn.SignalNoise, Confidence: 1}
	}
	if m := commandRe.FindStringSubmatch(text); m != nil {
		t := learn.SignalRemember
		if strings.EqualFold(m[1], "forget") {
			t = learn.SignalForget
		}
		return learn.Classification{Type: t, Pattern: "@" + strings.ToLower(m[1]), Confidence: 1, Match: strings.TrimSpace(text[len(m[0]):])}
	}
	if greetingRe.MatchString(text) && len(text) < 30 {
		return learn.Classification{Type: learn.SignalNoise, Pattern: "greeting", Confidence: 0.95}
	}
	if confirmationRe.MatchString(text) {
		return learn.Classification{Type: learn.SignalNoise, Pattern: "confirmation", Confidence: 0.95}
	}
	if procs, _ := Procedures(text); len(procs) > 0 {
		return learn.Classification{Type: learn.SignalProcedure, Pattern: "steps", Confidence: 0.7, Match: procs[0].String()}
	}
	sents := Sentences(text)
	for _, r := range Rules {
		for _, s := range sents {
			if r.match(s) {
				return learn.Classification{Type: r.Type, Pattern: r.Name, Confidence: r.Confidence, Match: s}
			}
		}
	}
	if len(text) > 50 && !allQuestions(sents) {
		return learn.Classification{Type: learn.SignalFactual, Confidence: 0.5}
	}
	if allQuestions(sents) {
		return learn.Classification{Type: learn.SignalNoise, Pattern: "question", Confidence: 0.6}
	}
	return learn.Classification{Type: learn.SignalNoise, Confidence: 0.6}
}

// Signal is a sentence of a message that matched a [Rule].
type Signal struct {
	Rule     Rule
	Sentence string
}

// Signals returns every sentence of text (of its [Bound] prefix) that matches a rule, in text order,
// each with the first rule it matches.
func Signals(text string) []Signal {
	var out []Signal
	for _, s := range Sentences(normalize(Bound(text))) {
		for _, r := range Rules {
			if r.match(s) {
				out = append(out, Signal{Rule: r, Sentence: s})
				break
			}
		}
	}
	return out
}

func (r Rule) match(s string) bool {
	if IsQuestion(s) || !r.Re.MatchString(s) {
		return false
	}
	return r.Unless == nil || !r.Unless.MatchString(durable.ReplaceAllString(s, ""))
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
func IsQuestion(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, "?") || questionRe.MatchString(s)
}

func allQuestions(sents []string) bool {
	for _, s := range sents {
		if !IsQuestion(s) {
			return false
		}
	}
	return len(sents) > 0
}

// normalize trims text and turns typographic apostrophes into ASCII ones.
func normalize(s string) string {
	return strings.TrimSpace(strings.NewReplacer("’", "'", "‘", "'").Replace(s))
}

// Sentences splits text at line breaks and at '.', '!' or '?' followed by
// a space, keeping the terminator. Empty pieces are dropped.
func Sentences(text string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			add(i)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' '):
			add(i + 1)
		}
	}
	add(len(text))
	return out
}
