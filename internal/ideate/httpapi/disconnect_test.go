package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// Closing the page (the last stream of a run) cancels the model call it was
// paying for once the grace passes; the session is not cancelled, so
// streaming it again continues where it was.
func TestClosedStreamCancelsTheCall(t *testing.T) {
	e := newEnvWith(t, func(e *env) { e.grace = 50 * time.Millisecond })
	id := e.create(problem)
	e.fake.Enqueue(llmtest.Hang())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.srv.URL+"/api/v1/sessions/"+id+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	e.fake.WaitRequests(t, 1, 10*time.Second)
	cancel()
	resp.Body.Close()
	e.fake.WaitCancelled(t, 1, 10*time.Second)

	deadline := time.Now().Add(10 * time.Second)
	for e.api.runs.get(id) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the abandoned run did not end")
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	if d := doneOf(t, e.stream(id)); d.Error || d.Cancelled || !d.AwaitingInput {
		t.Fatalf("streaming again got %+v, want the first round", d)
	}
}

// A stream that follows the run again within the grace (a reload) keeps it;
// the last one leaving starts the grace, and a run nobody followed (resumed
// at server start) is never abandoned.
func TestReloadKeepsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &liveRun{ctx: ctx, cancel: cancel, notify: make(chan struct{})}
	r.attach()
	r.attach()
	r.detach(time.Nanosecond) // another stream still follows
	if r.abandon != nil {
		t.Fatal("abandonment started while a stream still follows")
	}
	r.detach(time.Hour) // the page was closed
	if r.abandon == nil {
		t.Fatal("no abandonment after the last stream left")
	}
	r.attach() // the reload
	if r.abandon != nil || ctx.Err() != nil {
		t.Fatalf("reload did not keep the run: timer %v, ctx %v", r.abandon, ctx.Err())
	}
	r.detach(time.Millisecond)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the run was not cancelled after the grace")
	}
}
