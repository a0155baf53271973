package knowledge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/redact"
)

// File names inside a store directory.
const (
	EntriesFile   = "entries.jsonl"
	MarkdownFile  = "knowledge.md"
	ProcessedFile = "processed.jsonl"
)

// Errors returned by the store.
var (
	// ErrNotFound is returned when no entry has the given id (or id prefix).
	ErrNotFound = errors.New("knowledge: no entry with that id")
	// ErrAmbiguous is returned when an id prefix matches several entries.
	ErrAmbiguous = errors.New("knowledge: id prefix matches several entries")
	// ErrInvalid is returned for an entry without content or with an unknown type.
	ErrInvalid = errors.New("knowledge: invalid entry")
)

// Store is a knowledge store in one directory. It is safe for concurrent
// use, also across processes on Unix (an advisory lock on the directory
// serialises writers; see lockDir).
type Store struct {
	dir string
	mu  sync.Mutex // with the directory's file lock, held for every append and read-modify-append
	now func() time.Time
}

// Open opens (creating if needed) the store in dir and repairs a torn last
// line left by a crash in entries.jsonl or processed.jsonl.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create knowledge store %s: %w", dir, err)
	}
	s := &Store{dir: dir, now: time.Now}
	if _, err := os.Stat(s.EntriesPath()); errors.Is(err, os.ErrNotExist) {
		return s, nil // nothing to repair; a fresh store stays empty until written
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	for _, name := range []string{EntriesFile, ProcessedFile} {
		if err := repairTail(filepath.Join(dir, name)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// EntriesPath returns the path of entries.jsonl.
func (s *Store) EntriesPath() string { return filepath.Join(s.dir, EntriesFile) }

// MarkdownPath returns the path of knowledge.md.
func (s *Store) MarkdownPath() string { return filepath.Join(s.dir, MarkdownFile) }

// Entries returns every entry (latest version of each id), active or not.
func (s *Store) Entries() ([]learn.Entry, error) {
	f, err := os.Open(s.EntriesPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open knowledge store: %w", err)
	}
	defer f.Close()
	entries, _, err := Parse(f)
	return entries, err
}

// Active returns the entries that are neither superseded nor forgotten.
func (s *Store) Active() ([]learn.Entry, error) {
	entries, err := s.Entries()
	return ActiveOnly(entries), err
}

// NewID returns a new random entry id (a UUID v4). Not time-ordered on
// purpose: the entries of one run would share their first twelve
// characters, and a person names an entry by a short prefix ("learn forget
// 3f9a"); the store's order is the file's, not the ids'.
func NewID() string { return uuid.NewString() }

// Prepare validates e, redacts it and fills a missing ID and ExtractedAt.
// Content that is empty once redacted (nothing but markers) is invalid.
func (s *Store) Prepare(e learn.Entry) (learn.Entry, error) {
	e = RedactEntry(e)
	e.Content = strings.TrimSpace(e.Content)
	if redact.Blank(e.Content) || !e.Type.Valid() {
		return e, fmt.Errorf("%w: type %q, content %q", ErrInvalid, e.Type, e.Content)
	}
	if e.ID == "" {
		e.ID = NewID()
	}
	if e.ExtractedAt == "" {
		e.ExtractedAt = s.now().UTC().Format(time.RFC3339)
	}
	if e.Entities == nil {
		e.Entities = []string{}
	}
	e.Confidence = min(max(e.Confidence, 0), 1)
	return e, nil
}

// Append redacts, validates and appends entries, returning them as stored
// (ids filled). Either every entry is written or none is.
func (s *Store) Append(entries ...learn.Entry) ([]learn.Entry, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	out := make([]learn.Entry, 0, len(entries))
	for _, e := range entries {
		p, err := s.Prepare(e)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := appendLocked(s.EntriesPath(), out); err != nil {
		return nil, err
	}
	return out, nil
}

// AppendNew reads the stored entries (active or not) and appends those of
// the entries pick returns for them, all under the store's lock, which is
// held across processes on Unix: two writers (the SessionEnd worker, the
// CLI, the HTTP API) can never both decide that the same entry is new and
// store it twice. pick runs with the lock held and must not call the store.
// AppendNew returns the entries stored (ids filled) and the entries pick
// was given. An entry pick returns with the ID of a stored one is a new
// version of it (the latest version of an id is the entry), which is how
// evidence is updated: a repeated procedure is one entry, not two.
func (s *Store) AppendNew(pick func(existing []learn.Entry) []learn.Entry) (stored, existing []learn.Entry, err error) {
	err = s.Batch(func(b *Batch) error {
		stored, existing, err = b.AppendNew(pick)
		return err
	})
	if err != nil {
		stored = nil
	}
	return stored, existing, err
}

// Forget marks the entry whose id is (or uniquely starts with) id as
// forgotten and returns it. It returns ErrNotFound or ErrAmbiguous.
func (s *Store) Forget(id string) (e learn.Entry, err error) {
	err = s.Batch(func(b *Batch) error {
		e, err = b.Forget(id)
		return err
	})
	return e, err
}

// Supersede records that newID replaces oldID: oldID is hidden from then
// on. Both must exist.
func (s *Store) Supersede(oldID, newID string) error {
	return s.Batch(func(b *Batch) error { return b.Supersede(oldID, newID) })
}

func (s *Store) find(id string) (learn.Entry, error) {
	entries, err := s.Entries()
	if err != nil {
		return learn.Entry{}, errors.Join(err, ErrNotFound)
	}
	return findIn(entries, id)
}

// findIn returns the entry of entries whose id is (or uniquely starts
// with, when at least four characters long) id, or ErrNotFound or
// ErrAmbiguous.
func findIn(entries []learn.Entry, id string) (learn.Entry, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return learn.Entry{}, ErrNotFound
	}
	var hits []learn.Entry
	for _, e := range entries {
		if e.ID == id {
			return e, nil
		}
		if len(id) >= 4 && strings.HasPrefix(e.ID, id) {
			hits = append(hits, e)
		}
	}
	switch len(hits) {
	case 0:
		return learn.Entry{}, ErrNotFound
	case 1:
		return hits[0], nil
	}
	return learn.Entry{}, ErrAmbiguous
}

// WriteMarkdown renders the active entries to knowledge.md (atomically:
// a temporary file renamed over the old one) and returns the Markdown.
func (s *Store) WriteMarkdown() (string, error) {
	entries, err := s.Entries()
	if err != nil {
		return "", err
	}
	md := RenderMarkdown(entries)
	return md, writeAtomic(s.MarkdownPath(), []byte(md))
}

// jsonLines marshals each value onto its own line.
func jsonLines[T any](vs []T) ([]byte, error) {
	var lines []byte
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		lines = append(append(lines, b...), '\n')
	}
	return lines, nil
}

// lock takes the store's mutex and the directory's file lock.
func (s *Store) lock() (unlock func(), err error) {
	s.mu.Lock()
	un, err := lockDir(s.dir)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	return func() { un(); s.mu.Unlock() }, nil
}

// appendLocked writes one JSON line per value to path (see
// [appendLines]). The store's lock must be held.
func appendLocked[T any](path string, values []T) error {
	lines, err := jsonLines(values)
	if err != nil {
		return err
	}
	return appendLines(path, lines)
}

// appendLines appends lines (whole JSON lines) to path, creating it, in a
// single write after truncating a torn last line, and syncs: one open for
// both. The store's lock must be held.
func appendLines(path string, lines []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if err := repairOpen(f, path); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(lines); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// repairTail truncates path after its last newline, dropping a torn last
// line. A missing file is fine.
func repairTail(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	return repairOpen(f, path)
}

// repairOpen truncates f, opened read-write, after its last newline.
func repairOpen(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	end := fi.Size()
	buf := make([]byte, 4096)
	for pos := end; pos > 0; {
		n := int64(len(buf))
		if pos < n {
			n = pos
		}
		pos -= n
		if _, err := f.ReadAt(buf[:n], pos); err != nil && err != io.EOF {
			return fmt.Errorf("read %s: %w", path, err)
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				if pos+i+1 == end {
					return nil // intact
				}
				return f.Truncate(pos + i + 1)
			}
		}
	}
	return f.Truncate(0)
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
