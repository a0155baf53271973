package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestRunPanicEndsTheRunNotTheProcess(t *testing.T) {
	m := newRunManager(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r, ok := m.reserve("s1")
	if !ok {
		t.Fatal("reserve failed")
	}
	m.launch("s1", r, func(_ context.Context, emit func(core.Event)) {
		emit(core.Event{Type: core.EventAgentText, Data: "before"})
		panic("boom")
	})
	api := New(Options{Heartbeat: time.Second})
	rec := httptest.NewRecorder()
	api.follow(rec, httptest.NewRequest("GET", "/", nil), r)
	evs := readSSE(t, rec.Result())
	if diff := cmp.Diff([]core.EventType{core.EventAgentText, core.EventError, core.EventDone}, evTypes(evs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := m.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m.get("s1") != nil {
		t.Error("run not released after panic")
	}
}

func TestReplyToPlainTextTurn(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(textOnly("What budget do you have?"))
	if d := doneOf(t, e.stream(id)); d.AwaitingInput || d.Error {
		t.Fatalf("done got %+v", d)
	}
	e.fake.Enqueue(textOnly("Thanks."))
	evs := e.input(id, map[string]any{"type": "ask_user_response", "response": "About 10k"})
	if _, ok := find(evs, core.EventAgentText); !ok {
		t.Errorf("got %v", evTypes(evs))
	}
	if last := e.fake.Requests()[1].LastUserText(); last != `The user responded: "About 10k"` {
		t.Errorf("agent was told %q", last)
	}
}

func textOnly(s string) llmtest.Response { return llmtest.Text(s) }
