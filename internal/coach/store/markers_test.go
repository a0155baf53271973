package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/marker"
)

// markerIDs lists the sessions with a coaching marker in dataDir.
func markerIDs(tb testing.TB, dataDir string) []string {
	tb.Helper()
	list, err := marker.List(dataDir)
	if err != nil {
		tb.Fatal(err)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.SessionID)
	}
	return ids
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
		if got := markerIDs(t, s.dataDir); err == nil && !reflect.DeepEqual(got, []string{sess.ID}) {
			t.Errorf("markers before the commit: %v", got)
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
		if got := markerIDs(t, s.dataDir); len(got) != 1 {
			t.Errorf("marker removed before the end committed: %v", got)
		}
		return err
	})
	if err != nil || len(markerIDs(t, s.dataDir)) != 0 {
		t.Fatalf("after the end: %v, markers %v", err, markerIDs(t, s.dataDir))
	}
	if _, err := s.SetSessionStatus(ctx, sess.ID, coach.SessionActive); err != nil || !reflect.DeepEqual(markerIDs(t, s.dataDir), []string{sess.ID}) {
		t.Fatalf("resume: %v, markers %v", err, markerIDs(t, s.dataDir))
	}
	if err := s.DeleteSession(ctx, sess.ID); err != nil || len(markerIDs(t, s.dataDir)) != 0 {
		t.Fatalf("delete: %v, markers %v", err, markerIDs(t, s.dataDir))
	}
	rollback := errors.New("rollback")
	var lost coach.Session
	err = s.Update(ctx, func(tx *Tx) error {
		lost, _ = tx.CreateSession(ctx, NewSession{ProjectDir: "/q"})
		return rollback
	})
	if !errors.Is(err, rollback) || !reflect.DeepEqual(markerIDs(t, s.dataDir), []string{lost.ID}) {
		t.Errorf("rolled back: %v, markers %v", err, markerIDs(t, s.dataDir))
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
	if err := PruneMarkers(ctx, data); err != nil || len(markerIDs(t, data)) != 0 {
		t.Fatalf("PruneMarkers: %v, markers %v", err, markerIDs(t, data))
	}
	if err := marker.Write(data, marker.Marker{SessionID: "gone-3", At: old}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := markerIDs(t, data); !reflect.DeepEqual(got, []string{active.Session.ID}) {
		t.Errorf("markers after Open: %v, want the active session's", got)
	}
	if err := PruneMarkers(ctx, data); err != nil || len(markerIDs(t, data)) != 1 {
		t.Errorf("PruneMarkers removed the active session's marker: %v, %v", err, markerIDs(t, data))
	}
	empty := t.TempDir()
	if err := marker.Write(empty, marker.Marker{SessionID: "gone-4", At: old}); err != nil {
		t.Fatal(err)
	}
	if err := PruneMarkers(ctx, empty); err != nil || len(markerIDs(t, empty)) != 0 {
		t.Errorf("no database: %v, markers %v", err, markerIDs(t, empty))
	}
	if _, err := os.Stat(filepath.Join(empty, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("PruneMarkers created the database: %v", err)
	}
}
