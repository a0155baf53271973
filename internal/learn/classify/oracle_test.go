package classify

// The code this package's fast paths stand in for, kept as the oracle of
// FuzzAnalyzeOracle: the classifier as it was with every rule, question,
// greeting and confirmation tested by its regexp and every sentence
// lower-cased on its own.

import (
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

func oracleAnalyze(turn learn.Turn) Analysis {
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
	sc, lowered := oracleScanSentences(rest, rules)
	a.Signals = sc.signals
	switch {
	case len(a.Procedures) > 0:
		a.Classification = learn.Classification{Type: learn.SignalProcedure, Pattern: "steps", Confidence: 0.7, Match: a.Procedures[0].String()}
	case sc.best >= 0:
		s := a.Signals[sc.best]
		a.Classification = learn.Classification{Type: s.Rule.Type, Pattern: s.Rule.Name, Confidence: s.Rule.Confidence, Match: s.Sentence}
	case len(text) > 50 && !sc.onlyQuestions():
		a.Classification = learn.Classification{Type: learn.SignalFactual, Confidence: 0.5}
		for _, ls := range lowered {
			if !oracleIsQuestion(ls) && factCue().MatchString(ls) {
				a.FactCue = true
				break
			}
		}
	case sc.onlyQuestions():
		a.Classification = learn.Classification{Type: learn.SignalNoise, Pattern: "question", Confidence: 0.6}
	default:
		a.Classification = learn.Classification{Type: learn.SignalNoise, Confidence: 0.6}
	}
	return a
}

func oracleScanSentences(text string, rules ruleList) (sentenceScan, []string) {
	sc := sentenceScan{best: -1}
	var lowered []string
	for _, s := range oracleSentences(text) {
		sc.sentences++
		ls := lower(s)
		lowered = append(lowered, ls)
		if oracleIsQuestion(ls) {
			sc.questions++
			continue
		}
		for i, r := range rules {
			if oracleMatch(r, ls) {
				sc.signals = append(sc.signals, Signal{Rule: r, Sentence: s})
				if sc.best < 0 || i < rules.index(sc.signals[sc.best].Rule) {
					sc.best = len(sc.signals) - 1
				}
				break
			}
		}
	}
	return sc, lowered
}

func oracleIsQuestion(ls string) bool {
	return strings.HasSuffix(ls, "?") || compiled().quest.MatchString(ls)
}

func oracleMatch(r Rule, ls string) bool {
	if len(r.Hints) > 0 && !containsAny(ls, r.Hints) {
		return false
	}
	if !r.Re.MatchString(ls) {
		return false
	}
	return r.Unless == nil || !r.Unless.MatchString(compiled().durable.ReplaceAllString(ls, ""))
}

func oracleSentences(text string) []string {
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
