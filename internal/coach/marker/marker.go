// Package marker keeps one small file per active coaching session,
// DATA_DIR/coaching-active/<session-id>, holding the session's project
// directory and when the marker was written. The SessionStart hook
// (paige-hook) reads them to decide, without opening the coach's SQLite
// database, whether `paige hook coaching-state` has anything to say for its
// working directory; the coach store writes and removes them.
//
// The order of writes makes a marker an over-approximation: the store
// writes it before it commits a session as active and removes it after it
// commits the session's end, so a crash can leave a stale marker (one
// needless `paige hook coaching-state` run, which prunes it) but never a
// missing one. The package uses only the standard library, so the small
// hook binary can link it.
package marker

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DirName is the markers' directory inside DATA_DIR.
const DirName = "coaching-active"

// Grace is how long a marker is kept whatever the database says: the
// store writes it before the transaction that makes its session active
// commits, and a pruner reading the database in between must not remove
// it.
const Grace = time.Minute

// maxSize bounds the bytes read from one marker file; a larger one is not
// a marker.
const maxSize = 64 << 10

// Marker is one active coaching session as the hook sees it.
type Marker struct {
	// SessionID is the file's name.
	SessionID string `json:"-"`
	// Project is the session's project directory; "" matches every
	// directory, as the store's lookup does.
	Project string `json:"project"`
	// At is when the marker was written.
	At time.Time `json:"at"`
}

// Dir is the markers' directory of dataDir.
func Dir(dataDir string) string { return filepath.Join(dataDir, DirName) }

// validID reports whether id can name a marker file: not empty, no path
// separator, no leading dot (the temporary files have one).
func validID(id string) bool {
	return id != "" && !strings.HasPrefix(id, ".") && !strings.ContainsAny(id, `/\`)
}

// Write records m, replacing the session's previous marker. The file is
// written beside its final name and renamed, so a reader sees the old
// marker, the new one or none, never a part of one.
func Write(dataDir string, m Marker) error {
	if !validID(m.SessionID) {
		return fmt.Errorf("coaching marker: invalid session id %q", m.SessionID)
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("coaching marker: %w", err)
	}
	dir := Dir(dataDir)
	tmp := filepath.Join(dir, fmt.Sprintf(".tmp-%s-%d", m.SessionID, os.Getpid()))
	if err = os.MkdirAll(dir, 0o700); err == nil {
		err = os.WriteFile(tmp, append(data, '\n'), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, m.SessionID))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("coaching marker: %w", err)
	}
	return nil
}

// Remove deletes the session's marker; a missing one is not an error.
func Remove(dataDir, sessionID string) error {
	if !validID(sessionID) {
		return nil // no such marker can exist
	}
	if err := os.Remove(filepath.Join(Dir(dataDir), sessionID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("coaching marker: %w", err)
	}
	return nil
}

// List returns the markers of dataDir in file-name order. A missing
// directory is no marker; files that are not markers (unreadable, too
// large, not the JSON Write writes, temporary files) are skipped.
func List(dataDir string) ([]Marker, error) {
	entries, err := readDir(dataDir)
	var list []Marker
	for _, e := range entries {
		if m, ok := read(dataDir, e); ok {
			list = append(list, m)
		}
	}
	return list, err
}

// readDir lists the markers' directory of dataDir: nothing when it does
// not exist.
func readDir(dataDir string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(Dir(dataDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("coaching markers: %w", err)
	}
	return entries, nil
}

// read decodes the marker file e, reporting false for anything else.
func read(dataDir string, e os.DirEntry) (Marker, bool) {
	var m Marker
	if !e.Type().IsRegular() || !validID(e.Name()) {
		return m, false
	}
	if info, err := e.Info(); err != nil || info.Size() > maxSize {
		return m, false
	}
	data, err := os.ReadFile(filepath.Join(Dir(dataDir), e.Name()))
	if err != nil || json.Unmarshal(data, &m) != nil || m.At.IsZero() {
		return Marker{}, false
	}
	m.SessionID = e.Name()
	return m, true
}

// Covering returns the first marker whose project is cwd or one of its
// parents (symbolic links resolved too); an empty cwd or an empty project
// matches, as [github.com/paige-dev/paige/internal/coach/store.FindCoaching]
// matches. Problems reading the markers count as no marker: the hook never
// fails on them.
func Covering(dataDir, cwd string) (Marker, bool) {
	list, _ := List(dataDir)
	for _, m := range list {
		if cwd == "" || m.Project == "" || Within(cwd, m.Project) {
			return m, true
		}
	}
	return Marker{}, false
}

// Prune removes the markers of sessions active reports as not active, and
// files that are not markers, once they are older than [Grace] at now. It
// returns the first error met and goes on past it.
func Prune(dataDir string, active func(sessionID string) bool, now time.Time) error {
	entries, first := readDir(dataDir)
	for _, e := range entries {
		m, ok := read(dataDir, e)
		if ok && (active(m.SessionID) || now.Sub(m.At) < Grace) {
			continue
		}
		if !ok && !staleFile(e, now) {
			continue
		}
		if err := os.Remove(filepath.Join(Dir(dataDir), e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = fmt.Errorf("coaching markers: %w", err)
		}
	}
	return first
}

// staleFile reports whether a file that is not a marker (a temporary file
// left by a crash, a stray file) was last modified more than [Grace] ago;
// directories are left alone.
func staleFile(e os.DirEntry, now time.Time) bool {
	info, err := e.Info()
	return err == nil && !info.IsDir() && now.Sub(info.ModTime()) >= Grace
}

// Within reports whether path is dir or below it, also after resolving
// symbolic links (macOS's /var is /private/var).
func Within(path, dir string) bool {
	if under(path, dir) {
		return true
	}
	rp, err1 := filepath.EvalSymlinks(path)
	rd, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && under(rp, rd)
}

func under(path, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
