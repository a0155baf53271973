package knowledge

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestAppendNewUpdatesByID: an entry returned by pick with a stored ID is
// a new version of that entry: the store still holds one entry, with the
// new evidence and confidence, and its project and observation kept.
func TestAppendNewUpdatesByID(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Append(learn.Entry{Type: learn.Procedure, Content: "tests: go test ./...", Confidence: 0.5,
		Project: "/src/app/.git", Observed: &learn.Observed{Key: "k", Sessions: []string{"session:a"}, SessionCount: 1, Runs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.AppendNew(func(existing []learn.Entry) []learn.Entry {
		e := existing[0]
		o := *e.Observed
		o.Sessions, o.SessionCount, o.Runs = append(o.Sessions, "session:b"), 2, 3
		e.Observed, e.Confidence, e.Evidence = &o, 0.7, "seen twice"
		return []learn.Entry{e}
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].ID != first[0].ID {
		t.Fatalf("entries = %+v, want the one entry updated", all)
	}
	e := all[0]
	if e.Confidence != 0.7 || e.Evidence != "seen twice" || e.Project != "/src/app/.git" || e.Observed == nil ||
		e.Observed.SessionCount != 2 || len(e.Observed.Sessions) != 2 {
		t.Errorf("updated entry = %+v (observed %+v)", e, e.Observed)
	}
}

// TestRenderSaysTheProject: knowledge.md says which project an entry
// learned from behaviour holds for (a repository, not its .git), and
// nothing for entries that hold everywhere.
func TestRenderSaysTheProject(t *testing.T) {
	md := RenderMarkdown([]learn.Entry{
		{ID: "1", Type: learn.Procedure, Content: "tests: go test ./...", Project: "/src/ledger/.git"},
		{ID: "2", Type: learn.Procedure, Content: "tests: mix test", Project: "/tmp/tmpabc"},
		{ID: "3", Type: learn.Rule, Content: "Never force-push"},
	})
	for _, want := range []string{"- tests: go test ./... (project: /src/ledger)\n", "- tests: mix test (project: /tmp/tmpabc)\n", "- Never force-push\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("knowledge.md lacks %q:\n%s", want, md)
		}
	}
}
