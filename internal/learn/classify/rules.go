package classify

import (
	"regexp"
	"strings"
	"sync"

	"github.com/paige-dev/paige/internal/learn"
)

// Rule is one signal pattern. A sentence matches when it is not a question,
// contains one of Hints (when set; a cheap literal test that lets most
// sentences skip the regexp), Re matches and Unless (if set) does not;
// Unless is tested with the durable markers "from now on", "going forward"
// and "starting now" removed, so it can veto "now" without vetoing "From
// now on, always run go vet". Re, Unless and Hints see the sentence
// lower-cased (ASCII letters).
type Rule struct {
	Name       string
	Type       learn.SignalType
	Confidence float64
	Re         *regexp.Regexp
	Unless     *regexp.Regexp
	Hints      []string
}

// patterns are the compiled regexps of the package, built on first use
// rather than at package initialisation: every process that links the
// package (the session-start hook included) would pay for them at start.
type patterns struct {
	rules, refusal                         []Rule
	transient, durable                     *regexp.Regexp
	greeting, confirmation, command, quest *regexp.Regexp
}

var compiled = sync.OnceValue(compile)

// Rules returns the sentence patterns in the order they are tried.
//
// Changes from the plan: "I want" is a request, not a preference, and a
// conditional ("if/when I …") vetoes a preference; "wrong" alone is not a
// correction (it must be said of the assistant's work: "that's wrong",
// "wrong file"); imperative rules ("Never push to main", "Always run the
// linter", "Do not commit .env") are policies unless they only steer the
// task at hand (see the package doc); "we use X", "our X must …" and
// anything said "from now on" or "going forward" are policies; "use X
// instead of Y" and "use X, not Y" are corrections; more decision and
// preference phrasings ("I'd rather", "we're going with").
func Rules() []Rule { return compiled().rules }

// RefusalRules returns the patterns tried first on a turn that follows an
// interruption or a refused tool call ([learn.Turn.Interrupted]): there
// "use X" and "don't …" correct what was stopped ("use uv", "don't touch
// App.tsx, the toggle belongs in SettingsPage.tsx"); elsewhere they are a
// request about the task at hand.
func RefusalRules() []Rule { return compiled().refusal }

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

func compile() *patterns {
	p := &patterns{
		// transient matches an imperative that steers only the task at
		// hand: a "keep going" order ("Don't stop until the tests pass",
		// "Never give up"), a time limited to now ("Don't do that now",
		// "Don't merge yet", "this time", "for now", "today"), and "never
		// mind" / "don't mind …". A condition alone is not transient:
		// "Never merge until CI is green" stays a rule.
		transient: re(`^(please\s+)?(always|never|don'?t|do not)\s+(stop|quit|give up|halt|pause|finish|rest)\b\s*(until|till|unless|before|[.!]*$)` +
			`|\b(right now|for now|now|this time|today|tonight|for the moment|at the moment|for this (task|session|one|pr|change))\b([^(]|$)|\byet([.!,;]|$)` +
			`|^(please\s+)?(never|don'?t|do not)\s+mind\b`),
		durable:      re(`\b(from now on|going forward|starting now|from here on)\b`),
		greeting:     re(`^(hi|hello|hey|good (morning|afternoon|evening)|howdy|sup|what'?s up)\b`),
		confirmation: re(`^(ok|okay|k|got it|sure|thanks|thank you|ty|great|yes|no|yep|nope|alright|understood|roger|ack|cool|nice|perfect|go ahead|continue)\s*[.!?]?$`),
		command:      re(`^@(remember|forget)\b[:\s]*`),
		quest:        re(`^(what|why|how|where|which|who|whose)\b`),
	}
	p.rules = []Rule{
		{Name: "preference", Type: learn.SignalPreference, Confidence: 0.8, Hints: []string{"i ", "i'd"},
			Re:     re(`\bi (prefer|like|love|hate|dislike|always|never|usually|don'?t like|can'?t stand)\b|\bi(?:'d| would) (prefer|rather)\b`),
			Unless: re(`\b(if|when|whenever|unless|whether|once|in case)\s+i\b`)},
		{Name: "correction", Type: learn.SignalCorrection, Confidence: 0.8, Hints: []string{"no", "wrong", "incorrect", "meant", "said", "not "},
			Re: re(`^(no|nope)\b[,.!]?\s+\S|\b(that'?s|this is|it'?s|that is|you'?re|you are|this was|that was)\s+(wrong|incorrect|not (right|correct|what i))|\bi meant\b|\bnot what i (asked|meant|wanted|said)|\bi said\b|\bwrong (file|one|place|function|directory|branch|command|version|approach)\b|^(that'?s )?incorrect\b`)},
		{Name: "policy", Type: learn.SignalPolicy, Confidence: 0.8, Hints: []string{"we ", "our ", "don"},
			Re:     re(`\bwe (always|never|should|must|don'?t|do not|only use|use)\b|\bour (standard|convention|policy|rule|style)\b|\bour\s+[\w./@-]+(\s+[\w./@-]+)?\s+(must|should|shall|have to|has to|need to|needs to|always|never)\b|\bdon'?t (ever|use)\b`),
			Unless: p.transient},
		{Name: "imperative", Type: learn.SignalPolicy, Confidence: 0.75,
			Re:     re(`^(please\s+)?(always|never|don'?t|do not|make sure (to|you)|remember to)\s+[a-z]`),
			Unless: p.transient},
		{Name: "durable", Type: learn.SignalPolicy, Confidence: 0.8, Hints: []string{"from now", "going forward", "starting now", "from here on"},
			Re: p.durable, Unless: p.transient},
		{Name: "decision", Type: learn.SignalDecision, Confidence: 0.8, Hints: []string{"let", "decid", "decision", "we", "i'll", "i've"},
			Re: re(`\blet'?s (go with|use|choose|pick|stick with|switch to)\b|\bi'?ve decided\b|\bi decided\b|\bwe'?ll use\b|\bwe (decided|chose|agreed)\b|\bthe decision is\b|\bwe'?re going with\b|\bi'?ll go with\b`)},
		{Name: "instead", Type: learn.SignalCorrection, Confidence: 0.75,
			Re: re(`^(please\s+)?(just\s+)?use\s+\S.*(\b(instead of|rather than)\b|\binstead[.!]?$|[,;]\s*(and\s+)?not\s+(the\s+)?\S+[.!]?$)`)},
	}
	p.refusal = []Rule{
		{Name: "refusal", Type: learn.SignalCorrection, Confidence: 0.8,
			Re:     re(`^(please\s+)?(just\s+)?(no[,.!]?\s+)?(use|don'?t|do not)\s+\S`),
			Unless: p.transient},
	}
	return p
}

// lower returns s with ASCII letters lower-cased (s itself when it has
// none): byte offsets are kept, so a match in lower(s) is a match in s.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// match reports whether r matches the lower-cased sentence ls (which is not
// a question).
func (r Rule) match(ls string) bool {
	if len(r.Hints) > 0 && !containsAny(ls, r.Hints) {
		return false
	}
	if !r.Re.MatchString(ls) {
		return false
	}
	return r.Unless == nil || !r.Unless.MatchString(withoutDurable(ls))
}

// withoutDurable is ls with the durable markers removed; without "from "
// (of "from now on", "from here on"), "going forward" or "starting now"
// there is none, and the regexp need not run.
func withoutDurable(ls string) string {
	if !strings.Contains(ls, "from ") && !strings.Contains(ls, "going forward") && !strings.Contains(ls, "starting now") {
		return ls
	}
	return compiled().durable.ReplaceAllString(ls, "")
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
