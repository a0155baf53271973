package learncontext

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestProjectNamedInPrompt: an entry learned from one project's behaviour
// says which project in the system prompt, so the model does not take
// "tests: go test ./..." for a rule of every project.
func TestProjectNamedInPrompt(t *testing.T) {
	a, ks := newAssembler(t)
	if _, err := ks.Append(learn.Entry{Type: learn.Procedure, Content: "tests: go test ./...", Confidence: 0.8, Project: "/src/ledger/.git"}); err != nil {
		t.Fatal(err)
	}
	res := assemble(t, a)
	if !strings.Contains(res.SystemPrompt, "- tests: go test ./... (project: /src/ledger)") {
		t.Errorf("system prompt:\n%s", res.SystemPrompt)
	}
}
