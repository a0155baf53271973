package core

import (
	"strings"
	"testing"
)

// TestToolErrorView: every code has a kind; real failures are "failure".
func TestToolErrorView(t *testing.T) {
	for c := range Codes {
		kind, msg := ToolErrorView("mutate_premise", c)
		if msg == "" || (kind != KindGuardrail && kind != KindFailure) {
			t.Errorf("%s: got %q %q", c, kind, msg)
		}
	}
	if k, _ := ToolErrorView("x", CodeDatabase); k != KindFailure {
		t.Errorf("DATABASE_ERROR kind %q", k)
	}
	if _, m := ToolErrorView(strings.Repeat("a", 100), CodeValidation); !strings.Contains(m, "a tool") {
		t.Errorf("long tool name rendered %q", m)
	}
}
