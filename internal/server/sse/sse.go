// Package sse writes server-sent events (text/event-stream): the one SSE
// writer of Paige, used by GhostPath's run streams and learn's chat stream.
//
// A [Writer] opens the stream with the headers every SSE answer needs
// (Content-Type, Cache-Control: no-cache, Connection: keep-alive and
// X-Accel-Buffering: no, so proxies do not buffer), writes events and
// pre-encoded frames, and flushes after each write so the client sees an
// event as soon as it is written. Keep-alive comments (": keep-alive") stop
// proxies and browsers from closing an idle stream: call [Writer.KeepAlive]
// from an event loop, or [Writer.KeepAliveEvery] to send them in the
// background. A Writer is safe for concurrent use.
//
// Frames are "event: NAME\n" (when a name is given) then one
// "data: JSON\n" line and a blank line; JSON never holds a newline, so one
// data line is always enough.
package sse

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Writer writes one SSE stream. Create it with [Start].
type Writer struct {
	mu sync.Mutex // serialises writes and flushes
	w  http.ResponseWriter
	rc *http.ResponseController
}

// Start opens an SSE stream on w: it sets the headers, writes status 200
// and flushes, so the client sees the stream open before the first event.
// It fails when w cannot flush (the answer is then already 200 with no
// events, and the caller can only log and return).
func Start(w http.ResponseWriter) (*Writer, error) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		return nil, fmt.Errorf("sse: start stream: %w", err)
	}
	return &Writer{w: w, rc: rc}, nil
}

// Encode renders v as one frame: "event: name" when name is not empty,
// then "data: " and v as JSON. It fails only when v cannot be marshalled.
func Encode(name string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("sse: encode %s event: %w", name, err)
	}
	frame := make([]byte, 0, len(name)+len(b)+16)
	if name != "" {
		frame = append(append(append(frame, "event: "...), name...), '\n')
	}
	return append(append(append(frame, "data: "...), b...), "\n\n"...), nil
}

// Event writes one event (see [Encode]) and flushes it.
func (s *Writer) Event(name string, v any) error {
	frame, err := Encode(name, v)
	if err != nil {
		return err
	}
	return s.Frames(frame)
}

// Frames writes already encoded frames, in order, and flushes once. An
// error means the client is gone: stop writing.
func (s *Writer) Frames(frames ...[]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range frames {
		if _, err := s.w.Write(f); err != nil {
			return fmt.Errorf("sse: write: %w", err)
		}
	}
	return s.flushLocked()
}

// KeepAlive writes a keep-alive comment and flushes it.
func (s *Writer) KeepAlive() error { return s.Frames(keepAlive) }

var keepAlive = []byte(": keep-alive\n\n")

// KeepAliveEvery writes a keep-alive comment every d in the background
// until the returned stop is called (stop waits for the goroutine, so no
// write happens after it returns) or a write fails.
func (s *Writer) KeepAliveEvery(d time.Duration) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if s.KeepAlive() != nil {
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(quit) })
		<-done
	}
}

// flushLocked flushes the response. s.mu must be held.
func (s *Writer) flushLocked() error {
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("sse: flush: %w", err)
	}
	return nil
}
