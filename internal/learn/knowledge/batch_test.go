package knowledge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
)

// batchAPI are the store calls batchOps makes.
type batchAPI struct {
	appendNew func(func([]learn.Entry) []learn.Entry) error
	forget    func(string) error
	supersede func(string, string) error
	markdown  func() error
	processed func(Processed) error
}

// batchOps runs ops on s, each op a byte (kind, then an argument): append
// a new entry, append a new version of one, forget, supersede, ask for
// knowledge.md, mark a transcript processed. inBatch runs them in one
// Store.Batch, else each through the store's code as it was before batches
// (oracle_store_test.go), knowledge.md written after the last of them if
// asked for at all (a batch renders it at its end). Both stop at the first
// error, and return it.
func batchOps(s *Store, ops []byte, contents []string, inBatch bool) error {
	run := func(a batchAPI) error {
		n := 0
		for _, op := range ops {
			arg := int(op / 6)
			content := contents[arg%len(contents)]
			var err error
			switch op % 6 {
			case 0, 1: // a new entry, or a new version of entry arg
				id := fmt.Sprintf("id-%d", n)
				if op%6 == 1 {
					id = fmt.Sprintf("id-%d", arg%(n+1))
				} else {
					n++
				}
				e := learn.Entry{ID: id, Type: learn.KnowledgeTypes[arg%len(learn.KnowledgeTypes)], Content: content,
					Confidence: float64(arg%11) / 10, ExtractedAt: "2026-01-01T00:00:00Z"}
				err = a.appendNew(func([]learn.Entry) []learn.Entry { return []learn.Entry{e} })
			case 2:
				err = a.forget(fmt.Sprintf("id-%d", arg%(n+1)))
			case 3:
				err = a.supersede(fmt.Sprintf("id-%d", arg%(n+1)), fmt.Sprintf("id-%d", (arg/3)%(n+1)))
			case 4:
				err = a.markdown()
			case 5:
				err = a.processed(Processed{Key: content, Path: "p", Entries: arg})
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if !inBatch {
		return oracleOps(s, run)
	}
	return s.Batch(func(b *Batch) error {
		return run(batchAPI{
			appendNew: func(pick func([]learn.Entry) []learn.Entry) error { _, _, err := b.AppendNew(pick); return err },
			forget:    func(id string) error { _, err := b.Forget(id); return err },
			supersede: b.Supersede,
			markdown:  b.WriteMarkdown,
			processed: func(p Processed) error { b.MarkProcessed(p); return nil },
		})
	})
}

// oracleOps runs run through the store's code as it was before batches,
// knowledge.md and the processed records written after the last call (see
// batchOps).
func oracleOps(s *Store, run func(batchAPI) error) error {
	markdown := false
	var processed []Processed
	err := run(batchAPI{
		appendNew: func(pick func([]learn.Entry) []learn.Entry) error { _, _, err := oracleAppendNew(s, pick); return err },
		forget:    func(id string) error { _, err := oracleForget(s, id); return err },
		supersede: func(o, n string) error { return oracleSupersede(s, o, n) },
		markdown:  func() error { markdown = true; return nil },
		processed: func(p Processed) error { processed = append(processed, p); return nil },
	})
	if err != nil {
		return err
	}
	if markdown {
		if _, err := oracleWriteMarkdown(s); err != nil {
			return err
		}
	}
	for _, p := range processed {
		if err := oracleMarkProcessed(s, p); err != nil {
			return err
		}
	}
	return nil
}

// FuzzBatch checks that a batch writes the files the same calls to the
// store's code before batches wrote, with knowledge.md and the processed
// records written after the entries (as the pipeline asks for them after
// its last entry), and fails the same way.
func FuzzBatch(f *testing.F) {
	f.Add([]byte{0, 6, 4, 5, 2, 4}, "Never push to main|User prefers pnpm")
	f.Add([]byte{0, 0, 1, 3, 9, 4, 5}, "a|b|c")
	f.Add([]byte{0, 2, 2, 4}, "x")
	f.Add([]byte{0, 0, 3, 15, 8, 4, 11}, "sk-ant-api03-SECRETSECRETSECRET|\xff ok|`go test`")
	f.Fuzz(func(t *testing.T, ops []byte, text string) {
		if len(ops) > 8 {
			ops = ops[:8]
		}
		contents := strings.Split(text, "|")
		seq, bat := openStore(t), openStore(t)
		errSeq, errBat := batchOps(seq, ops, contents, false), batchOps(bat, ops, contents, true)
		if (errSeq == nil) != (errBat == nil) || errSeq != nil && errSeq.Error() != errBat.Error() {
			t.Fatalf("ops %v on %q: errors %v (calls) and %v (batch)", ops, contents, errSeq, errBat)
		}
		names := []string{EntriesFile}
		if errSeq == nil {
			names = append(names, MarkdownFile, ProcessedFile)
		}
		for _, name := range names {
			a, errA := os.ReadFile(filepath.Join(seq.Dir(), name))
			b, errB := os.ReadFile(filepath.Join(bat.Dir(), name))
			if string(a) != string(b) || (errA == nil) != (errB == nil) {
				t.Fatalf("ops %v on %q: %s differs:\n%s\nbatch:\n%s", ops, contents, name, a, b)
			}
		}
	})
}

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
