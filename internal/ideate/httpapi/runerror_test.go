package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/testenv"
)

// runErrorOf returns the data of the stream's error event.
func runErrorOf(t *testing.T, evs []sseEvent) core.SSEError {
	t.Helper()
	ev, ok := find(evs, core.EventError)
	if !ok {
		t.Fatalf("no error event in %v", evTypes(evs))
	}
	var d core.SSEError
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// flakyRepo fails GetSession from the failFrom-th call on (1-based).
type flakyRepo struct {
	core.Repository
	calls, failFrom atomic.Int32
}

func (r *flakyRepo) GetSession(ctx context.Context, id string) (core.Session, error) {
	if r.calls.Add(1) >= r.failFrom.Load() {
		return core.Session{}, errors.New("pq: relation \"ideate_sessions\" does not exist")
	}
	return r.Repository.GetSession(ctx, id)
}

// TestStreamErrorsAreForPeople covers the run errors the HTTP layer emits
// itself: a cancelled session, a database failure when the run reloads the
// session, and a panic in a run. Each is a sentence for people; the
// database's own error stays in the log.
func TestStreamErrorsAreForPeople(t *testing.T) {
	t.Run("cancelled session", func(t *testing.T) {
		e := newEnv(t)
		id := e.create(problem)
		e.json("POST", "/api/v1/sessions/"+id+"/cancel", nil, 200)
		d := runErrorOf(t, e.stream(id))
		if want := "This session was cancelled, so the agent will not continue it. Start a new session to keep exploring."; d.Message != want || d.Code != core.CodeInvalidSessionState {
			t.Errorf("got %+v, want %q", d, want)
		}
	})
	t.Run("database failure", func(t *testing.T) {
		e := newEnv(t)
		id := e.create(problem)
		repo := &flakyRepo{Repository: e.repo}
		repo.failFrom.Store(2) // the request's load passes, the run's reload fails
		logs := &testenv.SyncBuffer{}
		api := New(Options{Repo: repo, Runner: e.api.runner, Heartbeat: 50 * time.Millisecond,
			Logger: slog.New(slog.NewTextHandler(logs, nil))})
		srv := httptest.NewServer(api.Handler())
		defer srv.Close()
		defer api.Close(context.Background())
		resp, err := srv.Client().Get(srv.URL + "/api/v1/sessions/" + id + "/stream")
		if err != nil {
			t.Fatal(err)
		}
		d := runErrorOf(t, readSSE(t, resp))
		want := "Paige could not read or save this session in its database. Try again in a moment; the details are in Paige's server log."
		if d.Message != want || d.Code != core.CodeDatabase {
			t.Errorf("got %+v, want %q", d, want)
		}
		if !strings.Contains(logs.String(), "ideate_sessions") {
			t.Errorf("the database's error is not in the log:\n%s", logs.String())
		}
	})
	t.Run("panic", func(t *testing.T) {
		m := newRunManager(slog.New(slog.NewTextHandler(io.Discard, nil)))
		r, _ := m.reserve("s1")
		m.launch("s1", r, func(context.Context, func(core.Event)) { panic("runtime error: index out of range [3] with length 3") })
		rec := httptest.NewRecorder()
		New(Options{Heartbeat: time.Second}).follow(rec, httptest.NewRequest("GET", "/", nil), r)
		d := runErrorOf(t, readSSE(t, rec.Result()))
		if want := "Something unexpected went wrong inside Paige. The details are in Paige's server log."; d.Message != want || d.Code != core.CodeInternal {
			t.Errorf("got %+v, want %q", d, want)
		}
		if err := m.close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}
