package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// testListSearchActivity: sessions are listed by last activity (latest tool
// call, else creation), searched by problem text ignoring case with % and _
// taken literally, and counted with the same filters.
func testListSearchActivity(t *testing.T, s *Store) {
	ctx := context.Background()
	problems := []string{"Cut CHURN in SaaS", "Grow revenue", "Reduce churn 100% now", "Ship faster_today"}
	var ids []string
	for i, p := range problems {
		sess := core.Session{ID: NewID(), Problem: p, Status: core.StatusCreated, CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sess.ID)
	}
	// The oldest session gets a tool call after every creation: it is the
	// most recently active.
	touched := t0.Add(time.Hour)
	call := core.ToolCall{SessionID: ids[0], ToolName: "decompose_problem", Input: []byte(`{}`), Output: []byte(`{"status":"ok"}`),
		Status: "ok", Iteration: 1, CreatedAt: touched}
	if err := s.SaveProgress(ctx, ids[0], core.Progress{Calls: []core.ToolCall{call}}); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListSessions(ctx, core.ListOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ids[0], ids[3], ids[2], ids[1]}, sessionIDs(all)); diff != "" {
		t.Errorf("by last activity (-want +got):\n%s", diff)
	}
	if !all[0].LastActivityAt.Equal(touched) || !all[1].LastActivityAt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("last activity got %v, %v", all[0].LastActivityAt, all[1].LastActivityAt)
	}
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"churn", []string{ids[0], ids[2]}},
		{"CHURN in", []string{ids[0]}},
		{"100%", []string{ids[2]}},
		{"%", []string{ids[2]}},
		{"r_", []string{ids[3]}},
		{"nothing", nil},
	} {
		got, err := s.ListSessions(ctx, core.ListOptions{Query: tt.q})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, sessionIDs(got)); diff != "" {
			t.Errorf("q=%q (-want +got):\n%s", tt.q, diff)
		}
		n, err := s.CountSessions(ctx, core.ListOptions{Query: tt.q, Limit: 1, Offset: 5})
		if err != nil || n != len(tt.want) {
			t.Errorf("count q=%q got %d %v, want %d", tt.q, n, err, len(tt.want))
		}
	}
	s.UpdateStatus(ctx, ids[2], core.StatusCancelled, nil)
	if n, _ := s.CountSessions(ctx, core.ListOptions{Query: "churn", Status: core.StatusCreated}); n != 1 {
		t.Errorf("count with status got %d, want 1", n)
	}
}
