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
	if len(t.ToolUse) > 0 {
		uses := make([]learn.ToolUse, len(t.ToolUse))
		for i, u := range t.ToolUse {
			u.Input = redact.String(u.Input)
			uses[i] = u
		}
		t.ToolUse = uses
	}
	if len(t.ToolResults) > 0 {
		res := make([]learn.ToolResult, len(t.ToolResults))
		for i, r := range t.ToolResults {
			r.Content = redact.String(r.Content)
			res[i] = r
		}
		t.ToolResults = res
	}
	if t.Refused != nil { // the refused call is quoted in evidence
		u := *t.Refused
		u.Input = redact.String(u.Input)
		t.Refused = &u
	}
	return t
}
