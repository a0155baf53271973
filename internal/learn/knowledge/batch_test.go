package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
)

// TestBatchKeepsUnchangedMarkdown: knowledge.md is not rewritten when it
// holds what would be written.
func TestBatchKeepsUnchangedMarkdown(t *testing.T) {
	s := openStore(t)
	mustAppend(t, s, sampleEntry)
	if _, err := s.WriteMarkdown(); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(s.MarkdownPath(), old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Batch(func(b *Batch) error { return b.WriteMarkdown() }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.MarkdownPath()); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("knowledge.md rewritten with what it held: %v", err)
	}
	if _, err := s.Forget(sampleEntry.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Batch(func(b *Batch) error { return b.WriteMarkdown() }); err != nil {
		t.Fatal(err)
	}
	if md, _ := os.ReadFile(s.MarkdownPath()); strings.Contains(string(md), sampleEntry.Content) {
		t.Errorf("knowledge.md not rewritten after a forget:\n%s", md)
	}
}

// TestBatchFailureKeepsEarlierRecords: when a batch's function fails, the
// records made before are appended, as separate store calls would have
// appended them, and nothing else is written.
func TestBatchFailureKeepsEarlierRecords(t *testing.T) {
	s := openStore(t)
	stop := errors.New("stop")
	err := s.Batch(func(b *Batch) error {
		if _, _, err := b.AppendNew(func([]learn.Entry) []learn.Entry { return []learn.Entry{sampleEntry} }); err != nil {
			return err
		}
		b.MarkProcessed(Processed{Key: "k"})
		if err := b.WriteMarkdown(); err != nil {
			return err
		}
		return stop
	})
	if !errors.Is(err, stop) {
		t.Fatalf("got %v, want the function's error", err)
	}
	if got := entries(t, s); len(got) != 1 || got[0].ID != sampleEntry.ID {
		t.Errorf("entries: %+v", got)
	}
	for _, name := range []string{MarkdownFile, ProcessedFile} {
		if _, err := os.Stat(filepath.Join(s.Dir(), name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s written by a failed batch: %v", name, err)
		}
	}
}
