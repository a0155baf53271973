package mcphttp

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is what the handler tracks of one SDK session: its requests in
// progress (for the idle timeout and for notifications/cancelled) and the
// time its last request ended.
type session struct {
	ss      *mcp.ServerSession // immutable; never nil
	timeout time.Duration      // immutable; <= 0 means never expire

	mu    sync.Mutex
	busy  int                           // requests in progress, either path; guarded by mu
	last  time.Time                     // when the last request ended; guarded by mu
	calls map[string]context.CancelFunc // direct calls in progress by id key; guarded by mu
	timer *time.Timer                   // the idle timer; guarded by mu; nil once expired or closed
}

// sessions is the handler's table of live SDK sessions by id.
type sessions struct {
	mu sync.RWMutex
	m  map[string]*session // guarded by mu
}

// get returns the live session with id, or nil.
func (t *sessions) get(id string) *session {
	t.mu.RLock()
	s := t.m[id]
	t.mu.RUnlock()
	return s
}

// track starts tracking ss (once): its idle timer runs from now, and it is
// forgotten when the SDK closes it.
func (t *sessions) track(ss *mcp.ServerSession, timeout time.Duration) {
	id := ss.ID()
	t.mu.Lock()
	if _, ok := t.m[id]; ok {
		t.mu.Unlock()
		return
	}
	s := &session{ss: ss, timeout: timeout, last: time.Now(), calls: map[string]context.CancelFunc{}}
	if timeout > 0 {
		s.timer = time.AfterFunc(timeout, s.expire)
	}
	t.m[id] = s
	t.mu.Unlock()
	go func() {
		_ = ss.Wait() // the SDK closed it: DELETE, expiry, shutdown, a broken connection
		t.mu.Lock()
		delete(t.m, id)
		t.mu.Unlock()
		s.mu.Lock()
		if s.timer != nil {
			s.timer.Stop()
			s.timer = nil
		}
		s.mu.Unlock()
	}()
}

// expire closes the session if it has been idle for its timeout, and
// otherwise checks again when it could have been.
func (s *session) expire() {
	s.mu.Lock()
	if s.timer == nil {
		s.mu.Unlock()
		return
	}
	idle := time.Since(s.last)
	if s.busy > 0 || idle < s.timeout {
		wait := s.timeout // a request in progress: look again a whole timeout later
		if s.busy == 0 {
			wait = s.timeout - idle
		}
		s.timer.Reset(wait)
		s.mu.Unlock()
		return
	}
	s.timer = nil
	s.mu.Unlock()
	_ = s.ss.Close()
}

// begin marks a request in progress; a direct call registers the cancel
// func of its context under its id key. It reports false (registering
// nothing) when that id is already in progress on the session.
func (s *session) begin(key string, cancel context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel != nil {
		if _, dup := s.calls[key]; dup {
			return false
		}
		s.calls[key] = cancel
	}
	s.busy++
	return true
}

// end marks the request begun with key (or "" for one of the SDK's) done.
func (s *session) end(key string) {
	s.mu.Lock()
	if key != "" {
		delete(s.calls, key)
	}
	s.busy--
	s.last = time.Now()
	s.mu.Unlock()
}

// cancel cancels the direct call with id key, if it is in progress.
func (s *session) cancel(key string) {
	s.mu.Lock()
	f := s.calls[key]
	s.mu.Unlock()
	if f != nil {
		f()
	}
}
