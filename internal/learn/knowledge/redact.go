package knowledge

import (
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/redact"
)

// RedactEntry returns e with Content, Evidence, Entities and the observed
// behaviour's key passed through [redact.String]; entities that redact to
// nothing are dropped.
func RedactEntry(e learn.Entry) learn.Entry {
	e.Content = redact.String(e.Content)
	e.Evidence = redact.String(e.Evidence)
	if e.Observed != nil {
		o := *e.Observed
		o.Key = redact.String(o.Key)
		e.Observed = &o
	}
	if len(e.Entities) > 0 {
		ents := make([]string, 0, len(e.Entities))
		for _, x := range e.Entities {
			if r := redact.String(x); r != "" {
				ents = append(ents, r)
			}
		}
		e.Entities = ents
	}
	return e
}

// RedactTurn returns t with its text, tool inputs (the refused call's too)
// and tool results passed
// through [redact.String], so secrets never reach an extractor (a model).
func RedactTurn(t learn.Turn) learn.Turn {
	t.Content = redact.String(t.Content)
	t.ToolUse = mapCopy(t.ToolUse, func(u learn.ToolUse) learn.ToolUse {
		u.Input = redact.String(u.Input)
		return u
	})
	t.ToolResults = mapCopy(t.ToolResults, func(r learn.ToolResult) learn.ToolResult {
		r.Content = redact.String(r.Content)
		return r
	})
	if t.Refused != nil { // the refused call is quoted in evidence
		u := *t.Refused
		u.Input = redact.String(u.Input)
		t.Refused = &u
	}
	return t
}

// mapCopy returns a new slice of f applied to each of xs (the caller's
// slice is left alone), or xs itself when it is empty.
func mapCopy[T any](xs []T, f func(T) T) []T {
	if len(xs) == 0 {
		return xs
	}
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
