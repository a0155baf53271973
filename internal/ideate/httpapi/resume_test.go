package httpapi

import (
	"context"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestResumeInterruptedOnStart: after a restart, ResumeInterrupted starts
// the run a restart interrupted without anyone opening its page, and leaves
// a session paused for the user alone; opening the page then follows (or
// replays) the resumed run's result. On SQLite and PostgreSQL.
func TestResumeInterruptedOnStart(t *testing.T) {
	both(t, testResumeInterruptedOnStart)
}

func testResumeInterruptedOnStart(t *testing.T, e *env) {
	paused := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	premisesOf(t, e.stream(paused))

	interrupted := e.create(problem + " (interrupted)")
	e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
	resp := e.do("GET", "/api/v1/sessions/"+interrupted+"/stream", nil)
	before := len(e.fake.WaitRequests(t, 6, 30*time.Second))
	e.stop()
	readSSE(t, resp)
	e.start()

	round := ideatetest.Round("I1", false)
	e.fake.Enqueue(round...)
	n, err := e.api.ResumeInterrupted(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("resumed %d runs, err %v; want 1", n, err)
	}
	// The resumed run calls the model with nobody streaming.
	e.fake.WaitRequests(t, before+len(round), 30*time.Second)
	if ps := premisesOf(t, e.stream(interrupted)); ps[0].Title != "I1 premise A" {
		t.Fatalf("resumed run got %+v", ps)
	}
	if got := len(e.fake.Requests()); got != before+len(round) {
		t.Errorf("requests got %d, want %d: the paused session must not call the model", got, before+len(round))
	}
	// Nothing is left to resume.
	if n, err := e.api.ResumeInterrupted(context.Background()); err != nil || n != 0 {
		t.Errorf("second resume started %d runs, err %v", n, err)
	}
}
