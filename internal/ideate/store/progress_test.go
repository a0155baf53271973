package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
)

func TestSaveProgressWithToolCalls(t *testing.T) {
	onEveryEngine(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		sess := newSession(t, s, t0)
		calls := []core.ToolCall{{ToolName: "a", Status: "ok", CreatedAt: t0}, {ToolName: "b", Status: "error", ErrorCode: "X", CreatedAt: t0.Add(time.Millisecond)}}
		if err := s.SaveProgress(ctx, sess.ID, core.Progress{State: core.State{RoundNumber: 1}, TotalTokens: 9, Calls: calls}); err != nil {
			t.Fatal(err)
		}
		got, _ := s.ListToolCalls(ctx, sess.ID)
		if len(got) != 2 || got[1].ErrorCode != "X" || got[0].SessionID != sess.ID {
			t.Errorf("got %+v", got)
		}
		// A missing session writes nothing.
		if err := s.SaveProgress(ctx, NewID(), core.Progress{Calls: calls}); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	})
}

func msgs(ss ...string) []json.RawMessage {
	var out []json.RawMessage
	for _, s := range ss {
		out = append(out, json.RawMessage(`{"role":"user","content":"`+s+`"}`))
	}
	return out
}

func storedMessages(tb testing.TB, s *Store, id string) string {
	tb.Helper()
	got, err := s.GetSession(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return string(got.Messages)
}

func testIncrementalMessages(t *testing.T, s *Store) {
	ctx := context.Background()
	sess := core.Session{ID: NewID(), Problem: "p", Messages: json.RawMessage(`[{"role":"user","content":"a"}]`)}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		msgs []json.RawMessage
		from int
		want string
	}{
		{msgs("a", "b", "c"), 1, `[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":"c"}]`},
		{msgs("X", "b", "C", "d"), 2, `[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":"C"},{"role":"user","content":"d"}]`},
		{msgs("a", "b"), 2, `[{"role":"user","content":"a"},{"role":"user","content":"b"}]`},
		{msgs("z"), 0, `[{"role":"user","content":"z"}]`},
	}
	for i, st := range steps {
		if err := s.SaveProgress(ctx, sess.ID, core.Progress{Messages: st.msgs, From: st.from}); err != nil {
			t.Fatal(err)
		}
		if got := storedMessages(t, s, sess.ID); got != st.want {
			t.Errorf("step %d: got %s, want %s", i, got, st.want)
		}
	}
	if err := s.SaveProgress(ctx, sess.ID, core.Progress{Messages: []json.RawMessage{json.RawMessage("{oops")}}); err == nil {
		t.Error("invalid message JSON accepted")
	}
	if got := storedMessages(t, s, sess.ID); got != steps[3].want {
		t.Errorf("failed save changed the history: %s", got)
	}
}
