package memory_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

// logBuf is a concurrency-safe log sink for asserting warnings.
type logBuf struct{ testenv.SyncBuffer }

func (l *logBuf) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

var fixedNow = func() time.Time { return time.Date(2026, 2, 11, 9, 30, 0, 0, time.UTC) }

// opener opens a fresh, empty store of one backend.
type opener func(t *testing.T) memory.Store

// runSuite runs the story 8 scenarios against a backend.
func runSuite(t *testing.T, open opener) {
	t.Run("8.1 add stores content and metadata", func(t *testing.T) { testAdd(t, open(t)) })
	t.Run("8.2 semantic ranking", func(t *testing.T) { testRanking(t, open(t)) })
	t.Run("8.3 8.4 project filter", func(t *testing.T) { testProjects(t, open(t)) })
	t.Run("8.10 8.11 nResults", func(t *testing.T) { testNResults(t, open(t)) })
	t.Run("ids continue across calls", func(t *testing.T) { testIDsContinue(t, open(t)) })
	t.Run("EC-48 EC-49 EC-51 edge cases", func(t *testing.T) { testEdges(t, open(t)) })
	t.Run("secrets are redacted", func(t *testing.T) { testRedacts(t, open(t)) })
}

func add(tb testing.TB, s memory.Store, session, project string, ms ...memory.Memory) int {
	tb.Helper()
	n, err := s.AddMemories(context.Background(), session, project, ms)
	if err != nil {
		tb.Fatalf("AddMemories: %v", err)
	}
	return n
}

func query(tb testing.TB, s memory.Store, q memory.Query) []memory.Result {
	tb.Helper()
	rs, err := s.QueryMemories(context.Background(), q)
	if err != nil {
		tb.Fatalf("QueryMemories: %v", err)
	}
	return rs
}

func testAdd(t *testing.T, s memory.Store) {
	n := add(t, s, "sess1", "app-alpha",
		memory.Memory{Content: "Fixed the OAuth callback race condition", Tags: []string{"oauth", "race,condition"}, Importance: "high"},
		memory.Memory{Content: "Learned CSS grid layout", Tags: []string{"css"}, Importance: "low"},
	)
	if n != 2 {
		t.Fatalf("added: got %d, want 2", n)
	}
	if !s.IsMemoryAvailable() {
		t.Error("IsMemoryAvailable: got false after a successful add")
	}
	rs := query(t, s, memory.Query{Text: "OAuth callback race condition"})
	if len(rs) != 2 {
		t.Fatalf("results: got %d, want 2", len(rs))
	}
	want := memory.Result{ID: "mem_sess1_0", Content: "Fixed the OAuth callback race condition", Metadata: memory.Metadata{
		SessionID: "sess1", Project: "app-alpha", CreatedAt: "2026-02-11T09:30:00.000Z", Importance: "high", Tags: "oauth,race condition",
	}}
	if diff := cmp.Diff(want, rs[0], cmpIgnoreDistance); diff != "" {
		t.Errorf("first result (-want +got):\n%s", diff)
	}
	if rs[1].ID != "mem_sess1_1" || rs[1].Metadata.Tags != "css" || rs[1].Metadata.Importance != "low" {
		t.Errorf("second result: got %+v", rs[1])
	}
	if rs[0].Distance < 0 || rs[0].Distance > rs[1].Distance {
		t.Errorf("distances: got %v then %v, want ascending from ≥ 0", rs[0].Distance, rs[1].Distance)
	}
}

var cmpIgnoreDistance = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Distance" }, cmp.Ignore())

func testRanking(t *testing.T, s memory.Store) {
	add(t, s, "s1", "p",
		memory.Memory{Content: "CSS grid layout: used grid-template-areas for the dashboard"},
		memory.Memory{Content: "OAuth callback race condition: two redirects raced to write the session token"},
	)
	rs := query(t, s, memory.Query{Text: "race condition in auth flow"})
	if len(rs) != 2 || !strings.Contains(rs[0].Content, "OAuth") || rs[0].Distance >= rs[1].Distance {
		t.Errorf("got %+v, want the OAuth memory first with the lower distance", rs)
	}
}

func testProjects(t *testing.T, s memory.Store) {
	add(t, s, "a1", "app-alpha", memory.Memory{Content: "useEffect cleanup avoids stale subscriptions"})
	add(t, s, "b1", "app-beta", memory.Memory{Content: "useEffect cleanup on unmount fixed a leak"})
	all := query(t, s, memory.Query{Text: "useEffect cleanup"})
	projects := map[string]bool{}
	for _, r := range all {
		projects[r.Metadata.Project] = true
	}
	if !projects["app-alpha"] || !projects["app-beta"] {
		t.Errorf("cross-project: got projects %v, want both", projects)
	}
	alpha := query(t, s, memory.Query{Text: "useEffect cleanup", Project: "app-alpha"})
	if len(alpha) != 1 || alpha[0].Metadata.Project != "app-alpha" {
		t.Errorf("project filter: got %+v, want only app-alpha", alpha)
	}
	if none := query(t, s, memory.Query{Text: "useEffect", Project: "app-gamma"}); len(none) != 0 {
		t.Errorf("unknown project: got %+v, want none", none)
	}
}

func testNResults(t *testing.T, s memory.Store) {
	var ms []memory.Memory
	for i := range 15 {
		ms = append(ms, memory.Memory{Content: fmt.Sprintf("memory number %d about goroutines and channels", i)})
	}
	add(t, s, "s1", "p", ms...)
	if got := len(query(t, s, memory.Query{Text: "goroutines"})); got != 10 {
		t.Errorf("default nResults: got %d, want 10", got)
	}
	if got := len(query(t, s, memory.Query{Text: "goroutines", NResults: 5})); got != 5 {
		t.Errorf("nResults 5: got %d, want 5", got)
	}
	if got := len(query(t, s, memory.Query{Text: "goroutines", NResults: 50})); got != 15 {
		t.Errorf("nResults beyond count (EC-52): got %d, want 15", got)
	}
}

var idPattern = regexp.MustCompile(`^mem_sess-x_(\d+)$`)

func testIDsContinue(t *testing.T, s memory.Store) {
	add(t, s, "sess-x", "p", memory.Memory{Content: "first call a"}, memory.Memory{Content: "first call b"})
	add(t, s, "sess-x", "p", memory.Memory{Content: "second call"})
	add(t, s, "sess-y", "p", memory.Memory{Content: "other session"})
	rs := query(t, s, memory.Query{Text: "call", NResults: 10, Project: "p"})
	ids := map[string]bool{}
	for _, r := range rs {
		ids[r.ID] = true
	}
	for _, id := range []string{"mem_sess-x_0", "mem_sess-x_1", "mem_sess-x_2", "mem_sess-y_0"} {
		if !ids[id] {
			t.Errorf("missing %s in %v", id, ids)
		}
	}
	if len(rs) != 4 {
		t.Errorf("memories: got %d, want 4 (nothing overwritten)", len(rs))
	}
	for id := range ids {
		if strings.HasPrefix(id, "mem_sess-x_") && !idPattern.MatchString(id) {
			t.Errorf("id %q does not follow mem_{sessionId}_{index}", id)
		}
	}
}

func testEdges(t *testing.T, s memory.Store) {
	if n, err := s.AddMemories(context.Background(), "s", "p", nil); n != 0 || err != nil {
		t.Errorf("empty add: got %d %v, want 0 nil", n, err)
	}
	if _, err := s.AddMemories(context.Background(), "", "p", []memory.Memory{{Content: "x"}}); err != memory.ErrNoSession {
		t.Errorf("no session: got %v, want ErrNoSession", err)
	}
	var many []memory.Memory
	for i := range 60 {
		many = append(many, memory.Memory{Content: fmt.Sprintf("bulk memory %d", i), Tags: []string{"bulk"}})
	}
	if n := add(t, s, "bulk", "p", many...); n != 60 {
		t.Errorf("EC-51 bulk add: got %d, want 60", n)
	}
	if rs := query(t, s, memory.Query{Text: ""}); len(rs) != 10 {
		t.Errorf("EC-49 empty query: got %d results, want 10", len(rs))
	}
	add(t, s, "s", "p", memory.Memory{Content: "the and of"}) // embeds to a zero vector
	if rs := query(t, s, memory.Query{Text: "the"}); len(rs) == 0 {
		t.Error("stopword-only query: got no results")
	}
}
