package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/marker"
)

// covering is the session whose coaching marker in dataDir covers cwd, or
// "" (what the SessionStart hook asks); any marker covers an empty cwd.
func covering(dataDir, cwd string) string {
	m, _ := marker.Covering(dataDir, cwd)
	return m.SessionID
}

// TestMarkersFollowSessions: a session's marker exists before the
// transaction that makes it active commits, and still exists until the one
// that ends it has committed; resume writes it again, delete removes it; a
// transaction rolled back leaves its marker (stale, never missing).
func TestMarkersFollowSessions(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	var sess coach.Session
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		sess, err = tx.CreateSession(ctx, NewSession{ProjectDir: "/p"})
		if got := covering(s.dataDir, "/p"); err == nil && got != sess.ID {
			t.Errorf("marker before the commit: %q", got)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := marker.Covering(s.dataDir, "/p/src"); !ok || m.SessionID != sess.ID || m.Project != "/p" || !m.At.Equal(t0) {
		t.Errorf("marker %+v %v", m, ok)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		_, err := tx.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted)
		if covering(s.dataDir, "/p") != sess.ID {
			t.Error("marker removed before the end committed")
		}
		return err
	})
	if err != nil || covering(s.dataDir, "") != "" {
		t.Fatalf("after the end: %v, marker %q", err, covering(s.dataDir, ""))
	}
	if _, err := s.SetSessionStatus(ctx, sess.ID, coach.SessionActive); err != nil || covering(s.dataDir, "/p") != sess.ID {
		t.Fatalf("resume: %v, marker %q", err, covering(s.dataDir, "/p"))
	}
	if err := s.DeleteSession(ctx, sess.ID); err != nil || covering(s.dataDir, "") != "" {
		t.Fatalf("delete: %v, marker %q", err, covering(s.dataDir, ""))
	}
	rollback := errors.New("rollback")
	var lost coach.Session
	err = s.Update(ctx, func(tx *Tx) error {
		lost, _ = tx.CreateSession(ctx, NewSession{ProjectDir: "/q"})
		return rollback
	})
	if !errors.Is(err, rollback) || covering(s.dataDir, "") != lost.ID {
		t.Errorf("rolled back: %v, marker %q", err, covering(s.dataDir, "/q"))
	}
}

// TestOpenSyncsMarkers: Open writes the marker of an active session that
// has none (a crash, a database from before markers) and prunes the old
// ones of sessions that are not active; PruneMarkers does the pruning from
// another process, reading the database read-only, and with no database at
// all.
func TestOpenSyncsMarkers(t *testing.T) {
	ctx := context.Background()
	data := coachData(t, [2]string{"/p", "active"}, [2]string{"/q", "completed"})
	active, ok, err := FindCoaching(ctx, data, "/p")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := os.RemoveAll(marker.Dir(data)); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * marker.Grace)
	for _, id := range []string{"gone-1", "gone-2"} {
		if err := marker.Write(data, marker.Marker{SessionID: id, Project: "/p", At: old}); err != nil {
			t.Fatal(err)
		}
	}
	if err := PruneMarkers(ctx, data); err != nil || covering(data, "") != "" {
		t.Fatalf("PruneMarkers: %v, marker %q left", err, covering(data, ""))
	}
	if err := marker.Write(data, marker.Marker{SessionID: "gone-3", At: old}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := covering(data, "/p"); got != active.Session.ID || covering(data, "/elsewhere") != "" {
		t.Errorf("after Open: marker %q (elsewhere %q), want only the active session's", got, covering(data, "/elsewhere"))
	}
	if err := PruneMarkers(ctx, data); err != nil || covering(data, "/p") != active.Session.ID {
		t.Errorf("PruneMarkers removed the active session's marker: %v", err)
	}
	before, _ := marker.Covering(data, "/p")
	if s, err = Open(ctx, data); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if after, _ := marker.Covering(data, "/p"); !after.At.Equal(before.At) {
		t.Errorf("reopening rewrote a marker that was there: %v → %v", before.At, after.At)
	}
	empty := t.TempDir()
	if err := marker.Write(empty, marker.Marker{SessionID: "gone-4", At: old}); err != nil {
		t.Fatal(err)
	}
	if err := PruneMarkers(ctx, empty); err != nil || covering(empty, "") != "" {
		t.Errorf("no database: %v, marker %q left", err, covering(empty, ""))
	}
	if _, err := os.Stat(filepath.Join(empty, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("PruneMarkers created the database: %v", err)
	}
}
