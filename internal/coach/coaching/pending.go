package coaching

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// QueuedWrapUp is a wrap-up Claude Code's SessionEnd hook asked for while
// the server was not running: one JSON file in [QueueDir].
type QueuedWrapUp struct {
	// SessionID is the coaching session to wrap up; empty means the one
	// active when the queue is drained.
	SessionID string `json:"sessionId,omitempty"`
	// Transcript is the condensed transcript, as for paige_end_session.
	Transcript string    `json:"transcript"`
	QueuedAt   time.Time `json:"queuedAt"`
}

// maxQueuedBytes bounds one queue file read at start.
const maxQueuedBytes = 8 << 20

// QueueDir is the wrap-up queue directory in dataDir (DATA_DIR).
func QueueDir(dataDir string) string { return filepath.Join(dataDir, "wrapup-queue") }

// QueueWrapUp writes q as a new file of the queue in dataDir (written to a
// temporary file, then renamed: a drain never sees half a file) and
// returns its path. QueuedAt zero means now.
func QueueWrapUp(dataDir string, q QueuedWrapUp) (string, error) {
	dir := QueueDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the wrap-up queue: %w", err)
	}
	if q.QueuedAt.IsZero() {
		q.QueuedAt = time.Now().UTC()
	}
	b, err := json.Marshal(q)
	if err != nil {
		return "", fmt.Errorf("encode the queued wrap-up: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("queue the wrap-up: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	name := filepath.Join(dir, fmt.Sprintf("%d-%s.json", q.QueuedAt.UnixNano(), strings.TrimPrefix(filepath.Base(f.Name()), ".tmp-")))
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
		return "", fmt.Errorf("queue the wrap-up: %w", werr)
	}
	return name, nil
}

// RunPending is run once at server start, before anything else can wrap up
// a session: every queued wrap-up (oldest first) runs on its session with
// its transcript, then every ended session whose wrap-up is still pending
// (ended by the editor and never wrapped up, or cut by a stop) runs with an
// empty transcript. done is called with each wrap-up that ran. Offline
// (no model) nothing runs: the queue files and pending sessions are kept
// and counted in a warning. A queue file that cannot be read is renamed
// *.bad and logged. It returns how many wrap-ups ran.
func (s *Service) RunPending(ctx context.Context, dataDir string, done func(WrapUp)) int {
	files, _ := filepath.Glob(filepath.Join(QueueDir(dataDir), "*.json"))
	sort.Strings(files)
	pending, err := s.st.PendingWrapUps(ctx)
	if err != nil {
		s.log.Error("cannot list pending wrap-ups", "err", err)
	}
	if len(files) == 0 && len(pending) == 0 {
		return 0
	}
	if !s.llm.Available() {
		s.log.Warn("session wrap-ups pending until a model is configured", "queued", len(files), "sessions", len(pending))
		return 0
	}
	ran := 0
	for _, f := range files {
		if s.runQueued(ctx, f, done) {
			ran++
		}
	}
	for _, sess := range pending {
		w, err := s.WrapUpSession(ctx, sess.ID, "")
		if err != nil {
			s.log.Error("pending wrap-up failed", "session", sess.ID, "err", err)
			continue
		}
		if !w.AlreadyCompleted {
			ran++
			done(w)
		}
	}
	return ran
}

// runQueued runs one queue file and removes it unless the model failed
// (llm.ErrNoModel keeps it for the next start).
func (s *Service) runQueued(ctx context.Context, path string, done func(WrapUp)) bool {
	q, err := readQueued(path)
	if err != nil {
		s.log.Error("unreadable queued wrap-up set aside", "file", path, "err", err)
		_ = os.Rename(path, path+".bad")
		return false
	}
	id := q.SessionID
	if id == "" {
		id = s.sess.ActiveID()
	}
	var w WrapUp
	if id != "" {
		w, err = s.WrapUpSession(ctx, id, q.Transcript)
	}
	switch {
	case errors.Is(err, llm.ErrNoModel):
		return false
	case errors.Is(err, store.ErrNotFound), id == "":
		s.log.Warn("queued wrap-up has no session to wrap up; dropped", "file", path, "session", q.SessionID)
	case err != nil:
		s.log.Error("queued wrap-up failed", "file", path, "err", err)
		return false
	}
	if err := os.Remove(path); err != nil {
		s.log.Error("cannot remove a queued wrap-up", "file", path, "err", err)
	}
	if err == nil && id != "" && !w.AlreadyCompleted {
		done(w)
		return true
	}
	return false
}

func readQueued(path string) (QueuedWrapUp, error) {
	f, err := os.Open(path)
	if err != nil {
		return QueuedWrapUp{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxQueuedBytes+1))
	if err != nil {
		return QueuedWrapUp{}, err
	}
	if len(b) > maxQueuedBytes {
		return QueuedWrapUp{}, errors.New("larger than 8 MiB")
	}
	var q QueuedWrapUp
	if err := json.Unmarshal(b, &q); err != nil {
		return QueuedWrapUp{}, err
	}
	return q, nil
}
