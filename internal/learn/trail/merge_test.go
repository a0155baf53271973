package trail

import (
	"fmt"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

func TestConfidence(t *testing.T) {
	for _, c := range []struct {
		sessions, runs int
		want           float64
	}{{1, 1, 0.5}, {1, 2, 0.55}, {1, 9, 0.6}, {2, 2, 0.65}, {2, 5, 0.75}, {3, 3, 0.8}, {4, 4, 0.95}, {9, 90, 0.95}, {0, 0, 0.5}} {
		if got := Confidence(c.sessions, c.runs); got != c.want {
			t.Errorf("Confidence(%d, %d) = %v, want %v", c.sessions, c.runs, got, c.want)
		}
	}
}

func sameProject(string) string { return "/src/app/.git" }

// TestMerge: a new behaviour is a new entry of its project; seen again in
// another session it is the same entry with more evidence; two cwds of
// one project are one behaviour; a session counted already, a forgotten
// and a superseded entry change nothing; the sessions kept are bounded.
func TestMerge(t *testing.T) {
	c := Candidate{Type: learn.Procedure, Key: "procedure:test::go test ./...", Content: "tests: go test ./...", Cwd: "/src/app", Runs: 2}
	sub := c
	sub.Cwd, sub.Runs = "/src/app/web", 1
	first := Merge(nil, []Candidate{c, sub}, sameProject, "session:a", "t1")
	if len(first) != 1 || first[0].ID != "" || first[0].Project != "/src/app/.git" || first[0].Observed.Runs != 3 ||
		first[0].Confidence != 0.6 || first[0].Source != "session:a" {
		t.Fatalf("first = %+v", first)
	}
	stored := first[0]
	stored.ID = "e1"
	again := Merge([]learn.Entry{stored}, []Candidate{c}, sameProject, "session:b", "t2")
	if len(again) != 1 || again[0].ID != "e1" || again[0].Observed.SessionCount != 2 || again[0].Observed.Runs != 5 ||
		again[0].Confidence != 0.75 || again[0].ExtractedAt != "t2" || stored.Observed.SessionCount != 1 {
		t.Errorf("again = %+v %+v (stored %+v)", again, again[0].Observed, stored.Observed)
	}
	if got := Merge([]learn.Entry{stored}, []Candidate{c}, sameProject, "session:a", "t3"); len(got) != 0 {
		t.Errorf("a session counted twice: %+v", got)
	}
	forgotten, superseded := stored, stored
	forgotten.Forgotten, superseded.SupersededBy = true, "e2"
	for _, old := range []learn.Entry{forgotten, superseded} {
		if got := Merge([]learn.Entry{old}, []Candidate{c}, sameProject, "session:z", "t"); len(got) != 0 {
			t.Errorf("learned again after %+v: %+v", old, got)
		}
	}
	other := func(string) string { return "/src/other/.git" }
	if got := Merge([]learn.Entry{stored}, []Candidate{c}, other, "session:b", "t"); len(got) != 1 || got[0].ID != "" {
		t.Errorf("another project's behaviour updated this one: %+v", got)
	}
	e := stored
	for i := range 30 {
		e = Merge([]learn.Entry{e}, []Candidate{c}, sameProject, fmt.Sprintf("session:%d", i), "t")[0]
	}
	if o := e.Observed; len(o.Sessions) != learn.MaxObservedSessions || o.SessionCount != 31 || o.Sessions[len(o.Sessions)-1] != "session:29" || e.Confidence != 0.95 {
		t.Errorf("after 31 sessions: %+v, confidence %v", o, e.Confidence)
	}
}
