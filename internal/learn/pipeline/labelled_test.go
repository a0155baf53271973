package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// sessionLabels is testdata/labelled/sessions/labels.json.
type sessionLabels struct {
	Expect []struct {
		Project, Type, Match, Why string
	} `json:"expect"`
	EvidenceOnly []string `json:"evidenceOnly"`
	Never        []string `json:"never"`
}

// Goals of issue 26 for whole sessions: strict precision and recall.
const (
	sessionPrecisionGoal = 0.8
	sessionRecallGoal    = 0.8
)

// TestLabelledSessions learns the nine labelled sessions (a compaction
// summary, a subagent-driven pnpm build, mix test and credo, go test ./...
// from a worktree and a subdirectory, scoped rules, one-off commands, the
// team's bd, a pre-commit hook failure) into one store, heuristics only,
// and measures what would reach the next session (active, established
// entries) against the hand-written labels: strict precision (every entry
// not labelled is wrong) and recall. It fails below the goals, when a
// one-off command is established, or when compaction text is stored.
func TestLabelledSessions(t *testing.T) {
	dir := filepath.Join("..", "testdata", "labelled", "sessions")
	var labels sessionLabels
	b, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &labels); err != nil {
		t.Fatal(err)
	}
	paths, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 8 {
		t.Fatalf("%d sessions, want at least 8", len(paths))
	}
	for _, p := range paths {
		if strings.Contains(p, "/subagents/") {
			t.Errorf("a subagent file is listed as a session: %s", p)
		}
	}
	s := newStore(t)
	day := time.Date(2026, 2, 10, 9, 0, 0, 0, time.UTC)
	for i, p := range paths {
		now := day.Add(time.Duration(i) * 24 * time.Hour)
		if _, err := Run(context.Background(), p, Options{Store: s, Now: func() time.Time { return now }}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var learned []learn.Entry
	for _, e := range knowledge.ActiveOnly(all) {
		if e.Established() {
			learned = append(learned, e)
		}
	}
	found := make([]bool, len(labels.Expect))
	right := 0
	for _, e := range learned {
		ok := false
		for i, x := range labels.Expect {
			if projectRoot(e.Project) == x.Project && regexp.MustCompile("^(?:"+x.Type+")$").MatchString(string(e.Type)) &&
				regexp.MustCompile(x.Match).MatchString(e.Content) {
				found[i], ok = true, true
			}
		}
		if ok {
			right++
		} else {
			t.Logf("wrong or not labelled: [%s] %q (%s) %s", e.Type, e.Content, e.Project, e.Evidence)
		}
	}
	hits := 0
	for i, f := range found {
		if f {
			hits++
		} else {
			x := labels.Expect[i]
			t.Logf("missed: [%s] %s in %q (%s)", x.Type, x.Match, x.Project, x.Why)
		}
	}
	precision := float64(right) / float64(max(len(learned), 1))
	recall := float64(hits) / float64(len(labels.Expect))
	t.Logf("sessions %d: %d entries brought to a session, %d right; %d of %d labelled items learned: precision %.2f, recall %.2f",
		len(paths), len(learned), right, hits, len(labels.Expect), precision, recall)
	if precision < sessionPrecisionGoal || recall < sessionRecallGoal {
		t.Errorf("precision %.2f, recall %.2f: below the goals %.2f / %.2f", precision, recall, sessionPrecisionGoal, sessionRecallGoal)
	}
	for _, e := range learned {
		for _, one := range labels.EvidenceOnly {
			if strings.Contains(e.Content, one) {
				t.Errorf("a one-off command is brought into sessions: %q (%s)", e.Content, e.Evidence)
			}
		}
	}
	raw, err := os.ReadFile(s.EntriesPath())
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(s.Dir(), knowledge.MarkdownFile))
	for _, bad := range labels.Never {
		if strings.Contains(string(raw), bad) || strings.Contains(string(md), bad) {
			t.Errorf("stored: %q", bad)
		}
	}
}
