package knowledge

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// The pattern table that lived here moved to internal/redact (positives and
// negatives there); these tests cover what learn adds: every text field of
// a turn and an entry goes through it.

func TestRedactTurn(t *testing.T) {
	tr := RedactTurn(learn.Turn{Content: "x <private>y</private>", ToolUse: []learn.ToolUse{{Input: `{"token":"abcdefgh1234"}`}},
		ToolResults: []learn.ToolResult{{Content: "AKIAIOSFODNN7EXAMPLE"}}})
	all := tr.Content + tr.ToolUse[0].Input + tr.ToolResults[0].Content
	for _, s := range []string{"<private>", "abcdefgh1234", "AKIA"} {
		if strings.Contains(all, s) {
			t.Errorf("turn keeps %q: %+v", s, tr)
		}
	}
}

func TestRedactEntry(t *testing.T) {
	e := RedactEntry(learn.Entry{Content: "deploy with password=hunter22", Evidence: "the token is abc123def",
		Entities: []string{"postgres://app:pa55@db/x", "pnpm"}})
	all := e.Content + e.Evidence + strings.Join(e.Entities, " ")
	for _, s := range []string{"hunter22", "abc123def", "pa55"} {
		if strings.Contains(all, s) {
			t.Errorf("entry keeps %q: %+v", s, e)
		}
	}
	if len(e.Entities) != 2 || e.Entities[1] != "pnpm" {
		t.Errorf("entities %q, want both kept, the URL redacted", e.Entities)
	}
}

// TestRedactEntryObservedKey: the key of a behaviour learned from a tool
// trail holds the command, so it is redacted too, without touching the
// caller's Observed.
func TestRedactEntryObservedKey(t *testing.T) {
	o := &learn.Observed{Key: "procedure:run::./deploy.sh --password=hunter22", SessionCount: 1}
	e := RedactEntry(learn.Entry{Content: "x", Observed: o})
	if strings.Contains(e.Observed.Key, "hunter22") {
		t.Errorf("observed key keeps the secret: %q", e.Observed.Key)
	}
	if !strings.Contains(o.Key, "hunter22") {
		t.Errorf("the caller's Observed was modified")
	}
}

// TestRedactTurnRefusedCall: the refused call quoted in a correction's
// evidence is redacted with the rest of the turn.
func TestRedactTurnRefusedCall(t *testing.T) {
	const key = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	in := learn.Turn{Role: learn.User, Content: "use the env var", Interrupted: true,
		Refused: &learn.ToolUse{Name: "Bash", Input: `{"command":"curl -H 'x-api-key: ` + key + `' https://api.anthropic.com"}`}}
	out := RedactTurn(in)
	if strings.Contains(out.Refused.Input, key) || !strings.Contains(out.Refused.Input, "[REDACTED:") {
		t.Errorf("refused call not redacted: %s", out.Refused.Input)
	}
	if !strings.Contains(in.Refused.Input, key) {
		t.Error("RedactTurn changed its argument's refused call")
	}
}
