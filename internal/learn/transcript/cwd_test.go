package transcript

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestTurnsCarryCwd: every turn keeps the cwd of the line that started
// it (what the trail resolves to a project); a line without one leaves it
// empty, and a change of cwd shows on the turns that follow.
func TestTurnsCarryCwd(t *testing.T) {
	turns, _, err := ReadFile("testdata/cc-2.1.38-tool_heavy.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range turns {
		if tr.Cwd != "/home/marco/projects/spotter" {
			t.Fatalf("turn %+v has cwd %q", tr, tr.Cwd)
		}
	}
	in := `{"type":"user","cwd":"/a","message":{"role":"user","content":"one"}}
{"type":"assistant","cwd":"/a/b","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"two"}]}}
{"type":"user","message":{"role":"user","content":"three"}}
`
	turns, _, err = Read(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []learn.Turn{{Role: learn.User, Content: "one", Cwd: "/a"}, {Role: learn.Assistant, Content: "two", MessageID: "m1", Cwd: "/a/b"},
		{Role: learn.User, Content: "three"}}
	if len(turns) != 3 {
		t.Fatalf("turns = %+v", turns)
	}
	for i := range want {
		if turns[i].Cwd != want[i].Cwd || turns[i].Content != want[i].Content {
			t.Errorf("turn %d = %+v, want %+v", i, turns[i], want[i])
		}
	}
}
