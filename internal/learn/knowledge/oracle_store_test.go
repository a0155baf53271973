package knowledge

// The store's writes as they were before batches, each call under its own
// lock with its own append, kept as the oracle of FuzzBatch.

import (
	"fmt"
	"path/filepath"

	"github.com/paige-dev/paige/internal/learn"
)

func oracleAppendNew(s *Store, pick func(existing []learn.Entry) []learn.Entry) (stored, existing []learn.Entry, err error) {
	unlock, err := s.lock()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	existing, err = s.Entries()
	if err != nil {
		return nil, nil, err
	}
	for _, e := range pick(existing) {
		p, err := s.Prepare(e)
		if err != nil {
			return nil, existing, err
		}
		stored = append(stored, p)
	}
	if len(stored) == 0 {
		return nil, existing, nil
	}
	if err := appendLocked(s.EntriesPath(), stored); err != nil {
		return nil, existing, err
	}
	return stored, existing, nil
}
func oracleForget(s *Store, id string) (learn.Entry, error) {
	unlock, err := s.lock()
	if err != nil {
		return learn.Entry{}, err
	}
	defer unlock()
	e, err := s.find(id)
	if err != nil {
		return e, err
	}
	e.Forgotten = true
	return e, appendLocked(s.EntriesPath(), []learn.Entry{e})
}
func oracleSupersede(s *Store, oldID, newID string) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.find(newID); err != nil {
		return fmt.Errorf("supersede with %s: %w", newID, err)
	}
	old, err := s.find(oldID)
	if err != nil {
		return fmt.Errorf("supersede %s: %w", oldID, err)
	}
	old.SupersededBy = newID
	return appendLocked(s.EntriesPath(), []learn.Entry{old})
}

func oracleWriteMarkdown(s *Store) (string, error) {
	entries, err := s.Entries()
	if err != nil {
		return "", err
	}
	md := RenderMarkdown(entries)
	return md, writeAtomic(s.MarkdownPath(), []byte(md))
}

func oracleMarkProcessed(s *Store, p Processed) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return appendLocked(filepath.Join(s.dir, ProcessedFile), []Processed{p})
}
