package queue

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func transcript(tb testing.TB, dir, name, content string) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func mustEnqueue(tb testing.TB, q Queue, path string, want bool) {
	tb.Helper()
	got, err := q.Enqueue(Item{TranscriptPath: path, SessionID: "s1"}, t0)
	if err != nil {
		tb.Fatal(err)
	}
	if got != want {
		tb.Fatalf("Enqueue(%s): got %v, want %v", path, got, want)
	}
}

func TestQueueOncePerTranscriptVersion(t *testing.T) {
	dir := t.TempDir()
	q := Queue{Dir: filepath.Join(dir, "queue")}
	tr := transcript(t, dir, "a.jsonl", "{}\n")
	mustEnqueue(t, q, tr, true)
	mustEnqueue(t, q, tr, false) // already queued

	c, ok, err := q.Claim(t0)
	if err != nil || !ok {
		t.Fatalf("Claim: %v, %v", ok, err)
	}
	if c.Item.TranscriptPath != tr || c.Item.SessionID != "s1" || c.Item.Size != 3 {
		t.Errorf("claimed %+v", c.Item)
	}
	mustEnqueue(t, q, tr, false) // being processed
	if _, ok, _ := q.Claim(t0); ok {
		t.Fatal("claimed the same item twice")
	}
	if err := q.Finish(c, nil); err != nil {
		t.Fatal(err)
	}
	mustEnqueue(t, q, tr, false) // done

	if err := os.WriteFile(tr, []byte("{}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustEnqueue(t, q, tr, true) // the session went on: a new version
}

func TestQueueEnqueueErrors(t *testing.T) {
	dir := t.TempDir()
	q := Queue{Dir: filepath.Join(dir, "queue")}
	for _, p := range []string{filepath.Join(dir, "missing.jsonl"), dir} {
		if ok, err := q.Enqueue(Item{TranscriptPath: p}, t0); err == nil || ok {
			t.Errorf("Enqueue(%s) = %v, %v; want an error", p, ok, err)
		}
	}
}

func TestQueueConcurrentClaims(t *testing.T) {
	dir := t.TempDir()
	q := Queue{Dir: filepath.Join(dir, "queue")}
	const n = 20
	for i := 0; i < n; i++ {
		mustEnqueue(t, q, transcript(t, dir, fmt.Sprintf("t%02d.jsonl", i), "x"), true)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, ok, err := q.Claim(t0)
				if err != nil || !ok {
					return
				}
				mu.Lock()
				seen[c.Item.TranscriptPath]++
				mu.Unlock()
				if err := q.Finish(c, nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("processed %d transcripts, want %d", len(seen), n)
	}
	for p, k := range seen {
		if k != 1 {
			t.Errorf("%s processed %d times, want 1", p, k)
		}
	}
}

func TestQueueFailedAndStale(t *testing.T) {
	dir := t.TempDir()
	q := Queue{Dir: filepath.Join(dir, "queue")}
	mustEnqueue(t, q, transcript(t, dir, "a.jsonl", "x"), true)
	c, _, _ := q.Claim(t0)
	if err := q.Finish(c, errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	failed, err := q.Failed()
	if err != nil || len(failed) != 1 || failed[0].Error != "boom" {
		t.Fatalf("Failed() = %+v, %v; want one item with error boom", failed, err)
	}

	mustEnqueue(t, q, transcript(t, dir, "b.jsonl", "x"), true)
	if _, ok, _ := q.Claim(t0); !ok {
		t.Fatal("no claim")
	}
	if _, ok, _ := q.Claim(time.Now()); ok {
		t.Fatal("a fresh claim was taken back")
	}
	if _, ok, _ := q.Claim(time.Now().Add(StaleClaim + time.Minute)); !ok {
		t.Fatal("a stale claim was not taken back")
	}

	if err := os.WriteFile(filepath.Join(q.Dir, "junk.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := q.Claim(t0); ok || err != nil {
		t.Fatalf("claimed a garbage item: %v, %v", ok, err)
	}
	failed, _ = q.Failed()
	if len(failed) != 2 {
		t.Errorf("got %d failed items, want 2 (the garbage one moved aside)", len(failed))
	}
	pending, _ := q.Pending()
	if len(pending) != 1 {
		t.Errorf("got %d pending, want 1 (the reclaimed one)", len(pending))
	}
}

func TestQueueWorkerLock(t *testing.T) {
	q := Queue{Dir: filepath.Join(t.TempDir(), "queue")}
	unlock, ok, err := q.TryLock()
	if err != nil || !ok {
		t.Fatalf("first lock: %v, %v", ok, err)
	}
	if _, ok, err := q.TryLock(); ok || err != nil {
		t.Fatalf("second lock while held: ok %v, err %v; want refused", ok, err)
	}
	unlock()
	unlock2, ok, err := q.TryLock()
	if err != nil || !ok {
		t.Fatalf("lock after unlock: %v, %v", ok, err)
	}
	unlock2()
	if q.HasQueued() {
		t.Error("empty queue has queued items")
	}
	mustEnqueue(t, q, transcript(t, t.TempDir(), "a.jsonl", "x"), true)
	if !q.HasQueued() {
		t.Error("HasQueued false after Enqueue")
	}
}
