package knowledge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Batch is a series of changes to a store made under its lock and written
// together ([Store.Batch]): the entries' new records in one append to
// entries.jsonl, synced once, then knowledge.md, then the processed
// records in one append to processed.jsonl, synced once. Its methods
// behave as the store's methods of the same names called one after the
// other under the lock. A Batch is valid only inside the function given
// to Store.Batch.
type Batch struct {
	s       *Store
	read    bool
	entries []learn.Entry  // the latest version of each id, in the order ids first appeared
	index   map[string]int // position of each id in entries
	shared  bool           // entries was handed out: copy it before changing an entry in place
	lines   []byte         // the records to append to entries.jsonl

	markdown  bool
	processed []Processed
}

// Batch runs fn with the store's lock held (across processes on Unix),
// then writes what fn recorded: the entry records, in one append and one
// sync, then knowledge.md if fn asked for it ([Batch.WriteMarkdown]), then
// the processed records, in one append and one sync. The processed records
// are synced only after the entries they count are, so a transcript is
// never marked extracted with its entries lost. When fn fails, the records
// it made before failing are still appended (as one store call after
// another would have), and fn's error is returned.
func (s *Store) Batch(fn func(b *Batch) error) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	b := &Batch{s: s}
	ferr := fn(b)
	if len(b.lines) > 0 {
		if err := appendLines(s.EntriesPath(), b.lines); err != nil {
			return err
		}
	}
	if ferr != nil {
		return ferr
	}
	if b.markdown {
		if err := writeIfChanged(s.MarkdownPath(), []byte(RenderMarkdown(b.entries))); err != nil {
			return err
		}
	}
	if len(b.processed) == 0 {
		return nil
	}
	lines, err := jsonLines(b.processed)
	if err != nil {
		return err
	}
	return appendLines(filepath.Join(s.dir, ProcessedFile), lines)
}

// load reads the stored entries once.
func (b *Batch) load() error {
	if b.read {
		return nil
	}
	entries, err := b.s.Entries()
	if err != nil {
		return err
	}
	b.entries, b.index, b.read = entries, make(map[string]int, len(entries)), true
	for i, e := range entries {
		b.index[e.ID] = i
	}
	return nil
}

// Entries returns every entry (latest version of each id) as the batch
// has them so far; the caller must not modify them.
func (b *Batch) Entries() ([]learn.Entry, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	b.shared = true
	return b.entries, nil
}

// add records es, prepared, as new records: each is what reading its
// record back gives, as Entries would after the append.
func (b *Batch) add(es []learn.Entry) error {
	lines, err := jsonLines(es)
	if err != nil {
		return err
	}
	b.lines = append(b.lines, lines...)
	for line := range strings.SplitSeq(strings.TrimSuffix(string(lines), "\n"), "\n") {
		var e learn.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return fmt.Errorf("read back an entry: %w", err)
		}
		if i, ok := b.index[e.ID]; ok {
			if b.shared {
				b.entries, b.shared = slices.Clone(b.entries), false
			}
			b.entries[i] = e
		} else {
			b.index[e.ID] = len(b.entries)
			b.entries = append(b.entries, e)
		}
	}
	return nil
}

// AppendNew is [Store.AppendNew] within the batch. pick must not modify
// the entries it is given.
func (b *Batch) AppendNew(pick func(existing []learn.Entry) []learn.Entry) (stored, existing []learn.Entry, err error) {
	existing, err = b.Entries()
	if err != nil {
		return nil, nil, err
	}
	for _, e := range pick(existing) {
		p, err := b.s.Prepare(e)
		if err != nil {
			return nil, existing, err
		}
		stored = append(stored, p)
	}
	if len(stored) == 0 {
		return nil, existing, nil
	}
	return stored, existing, b.add(stored)
}

// Forget is [Store.Forget] within the batch.
func (b *Batch) Forget(id string) (learn.Entry, error) {
	if err := b.load(); err != nil {
		return learn.Entry{}, err
	}
	e, err := findIn(b.entries, id)
	if err != nil {
		return e, err
	}
	e.Forgotten = true
	return e, b.add([]learn.Entry{e})
}

// Supersede is [Store.Supersede] within the batch.
func (b *Batch) Supersede(oldID, newID string) error {
	if err := b.load(); err != nil {
		return err
	}
	if _, err := findIn(b.entries, newID); err != nil {
		return fmt.Errorf("supersede with %s: %w", newID, err)
	}
	old, err := findIn(b.entries, oldID)
	if err != nil {
		return fmt.Errorf("supersede %s: %w", oldID, err)
	}
	old.SupersededBy = newID
	return b.add([]learn.Entry{old})
}

// WriteMarkdown asks for knowledge.md to be rendered from the entries as
// they are at the end of the batch (see [Store.WriteMarkdown]).
func (b *Batch) WriteMarkdown() error {
	b.markdown = true
	return b.load()
}

// MarkProcessed appends p to the processed list at the end of the batch,
// after the entries.
func (b *Batch) MarkProcessed(p Processed) { b.processed = append(b.processed, p) }

// writeIfChanged writes data to path atomically ([writeAtomic]) unless
// path holds data already: rewriting a file with what it holds would
// create a temporary file for nothing.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	return writeAtomic(path, data)
}
