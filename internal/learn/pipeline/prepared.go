package pipeline

import (
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/classify"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// prepared are a transcript's turns ready for extraction: each user turn
// cut to its bounded prefix ([classify.Bound]) and redacted, so what is
// classified, extracted, stored or sent to a model holds no secret, and
// classified once. Only the user turns are copied: the others stay as read
// (an assistant turn is noise at once).
type prepared struct {
	turns    []learn.Turn        // as read
	at       []int32             // at[i] is where turns[i] is in user, -1 for a turn of another role
	user     []learn.Turn        // the user turns, bounded and redacted
	analyses []classify.Analysis // of user
}

// prepare prepares turns (see [prepared]).
func prepare(turns []learn.Turn) *prepared {
	p := &prepared{turns: turns, at: make([]int32, len(turns))}
	n := 0
	for _, t := range turns {
		if isUserTurn(t) {
			n++
		}
	}
	p.user = make([]learn.Turn, 0, n)
	p.analyses = make([]classify.Analysis, 0, n)
	for i, t := range turns {
		if !isUserTurn(t) {
			p.at[i] = -1
			continue
		}
		p.at[i] = int32(len(p.user))
		t = prepareUserTurn(t)
		p.user = append(p.user, t)
		p.analyses = append(p.analyses, classify.Analyze(t))
	}
	return p
}

// turn returns turn i, prepared if it is a user turn.
func (p *prepared) turn(i int) learn.Turn {
	if u := p.at[i]; u >= 0 {
		return p.user[u]
	}
	return p.turns[i]
}

// analysis returns the analysis of turn i.
func (p *prepared) analysis(i int) classify.Analysis {
	if u := p.at[i]; u >= 0 {
		return p.analyses[u]
	}
	return classify.Analyze(p.turns[i])
}

// signals is [Classify] on prepared turns.
func (p *prepared) signals() (signal []int, forgets []string) {
	for i, u := range p.at {
		if u < 0 {
			continue
		}
		signal, forgets = addSignal(signal, forgets, i, p.analyses[u].Classification)
	}
	return signal, forgets
}

// prepareUserTurn returns the user turn t cut to its bounded prefix and
// redacted.
func prepareUserTurn(t learn.Turn) learn.Turn {
	t.Content = classify.Bound(t.Content)
	return knowledge.RedactTurn(t)
}

// isUserTurn reports whether t holds what the user said: a user turn of
// the main thread. A subagent's "user" turns are the prompts Claude wrote
// for it; only its tool trail is mined.
func isUserTurn(t learn.Turn) bool { return t.Role == learn.User && !t.Sidechain }
