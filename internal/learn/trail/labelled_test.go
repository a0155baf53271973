package trail

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

const labelledDir = "../testdata/labelled/trail"

// Floors of the labelled benchmark, per entry type.
const (
	precisionFloor = 0.9
	recallFloor    = 0.8
)

type labelled struct {
	Sessions []struct {
		File         string   `json:"file"`
		BuildTestRun bool     `json:"buildTestRun"`
		HeldOut      bool     `json:"heldOut"`
		Procedure    []string `json:"procedure"`
		Fact         []string `json:"fact"`
	} `json:"sessions"`
}

func loadLabels(t *testing.T) labelled {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(labelledDir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l labelled
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Sessions) < 23 {
		t.Fatalf("labels name %d sessions, want the 10 fixtures, 9 written ones and 4 held out", len(l.Sessions))
	}
	return l
}

func mineFile(t *testing.T, file string) []Candidate {
	t.Helper()
	turns, _, err := transcript.ReadFile(filepath.Join(labelledDir, file), nil)
	if err != nil {
		t.Fatal(err)
	}
	return Mine(turns)
}

type score struct{ tp, fp, fn int }

func (s score) precision() float64 { return float64(s.tp) / float64(max(s.tp+s.fp, 1)) }
func (s score) recall() float64    { return float64(s.tp) / float64(max(s.tp+s.fn, 1)) }

// TestLabelledPrecisionRecall mines every labelled session and prints
// precision and recall per entry type, over all sessions and over the
// held-out ones apart; it fails when the figures over all sessions fall
// below the floors. Misses and false positives are listed.
func TestLabelledPrecisionRecall(t *testing.T) {
	all := map[learn.KnowledgeType]*score{learn.Procedure: {}, learn.Fact: {}}
	held := map[learn.KnowledgeType]*score{learn.Procedure: {}, learn.Fact: {}}
	for _, s := range loadLabels(t).Sessions {
		want := map[learn.KnowledgeType][]string{learn.Procedure: s.Procedure, learn.Fact: s.Fact}
		got := map[learn.KnowledgeType][]string{}
		for _, c := range mineFile(t, s.File) {
			got[c.Type] = append(got[c.Type], c.Content)
		}
		for typ, sc := range all {
			var d score
			for _, g := range got[typ] {
				if slices.Contains(want[typ], g) {
					d.tp++
				} else {
					d.fp++
					t.Logf("%s: unexpected %s %q", filepath.Base(s.File), typ, g)
				}
			}
			for _, w := range want[typ] {
				if !slices.Contains(got[typ], w) {
					d.fn++
					t.Logf("%s: missed %s %q", filepath.Base(s.File), typ, w)
				}
			}
			sc.tp, sc.fp, sc.fn = sc.tp+d.tp, sc.fp+d.fp, sc.fn+d.fn
			if s.HeldOut {
				h := held[typ]
				h.tp, h.fp, h.fn = h.tp+d.tp, h.fp+d.fp, h.fn+d.fn
			}
		}
	}
	for _, typ := range []learn.KnowledgeType{learn.Procedure, learn.Fact} {
		a, h := *all[typ], *held[typ]
		t.Logf("%-9s all: precision %.3f (%d/%d) recall %.3f (%d/%d) | held out: precision %.3f (%d/%d) recall %.3f (%d/%d)",
			typ, a.precision(), a.tp, a.tp+a.fp, a.recall(), a.tp, a.tp+a.fn,
			h.precision(), h.tp, h.tp+h.fp, h.recall(), h.tp, h.tp+h.fn)
		if a.precision() < precisionFloor || a.recall() < recallFloor {
			t.Errorf("%s: precision %.3f, recall %.3f; floors %.2f and %.2f", typ, a.precision(), a.recall(), precisionFloor, recallFloor)
		}
	}
}

// TestEverySessionWithACommandTeaches: each labelled session in which a
// build, test or run command ran (the fixtures and the written ones)
// yields at least one correct procedure or fact.
func TestEverySessionWithACommandTeaches(t *testing.T) {
	n := 0
	for _, s := range loadLabels(t).Sessions {
		if !s.BuildTestRun {
			continue
		}
		n++
		ok := false
		for _, c := range mineFile(t, s.File) {
			ok = ok || slices.Contains(s.Procedure, c.Content) || slices.Contains(s.Fact, c.Content)
		}
		if !ok {
			t.Errorf("%s: a build/test/run command ran, and nothing correct was learned", s.File)
		}
	}
	if n < 12 {
		t.Errorf("%d sessions with a build/test/run command, want at least the 4 fixtures and 8 written ones", n)
	}
}
