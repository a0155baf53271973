package session

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/limits"
)

func hintsN(n int, style string) []Hint {
	out := make([]Hint, n)
	for i := range out {
		out[i] = Hint{Path: fmt.Sprintf("src/pkg%d/file%d.go", i%100, i), Style: style}
	}
	return out
}

// A path given twice in one call is added once, with its last style, and
// a path hinted again moves to the end.
func TestAddHintsDedup(t *testing.T) {
	f := newFixture(t, false)
	got, err := f.svc.AddHints([]Hint{{Path: "a.go", Style: "x"}, {Path: "b.go", Style: "x"}, {Path: "./a.go", Style: "y"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Hint{{Path: "b.go", Style: "x"}, {Path: "a.go", Style: "y"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("added (-want +got):\n%s", diff)
	}
	if _, err := f.svc.AddHints([]Hint{{Path: "b.go", Style: "z"}, {Path: "c.go", Style: "z"}}); err != nil {
		t.Fatal(err)
	}
	want = []Hint{{Path: "a.go", Style: "y"}, {Path: "b.go", Style: "z"}, {Path: "c.go", Style: "z"}}
	if diff := cmp.Diff(want, f.svc.Hints()); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
}

// The session holds at most limits.Hints hints: a call that would pass it
// is refused whole with the limit error; re-hinting known paths is fine.
func TestAddHintsAccumulatedLimit(t *testing.T) {
	f := newFixture(t, false)
	if _, err := f.svc.AddHints(hintsN(limits.Hints, "a")); err != nil {
		t.Fatalf("the maximum number of hints: %v", err)
	}
	if _, err := f.svc.AddHints(hintsN(limits.Hints, "b")); err != nil {
		t.Fatalf("re-hinting the same paths: %v", err)
	}
	_, err := f.svc.AddHints([]Hint{{Path: "one-more.go", Style: "a"}})
	le := limits.As(err)
	if le == nil || le.Limit != limits.Hints || le.Actual != limits.Hints+1 {
		t.Fatalf("err = %v, want the accumulated hints limit", err)
	}
	if n := len(f.svc.Hints()); n != limits.Hints {
		t.Errorf("%d hints after the refused call, want %d", n, limits.Hints)
	}
	f.svc.ClearHints()
	if _, err := f.svc.AddHints([]Hint{{Path: "one-more.go", Style: "a"}}); err != nil {
		t.Errorf("after ClearHints: %v", err)
	}
}

// Highlights accumulate up to limits.Highlights over all files; clearing a
// file makes room again.
func TestAddHighlightLimit(t *testing.T) {
	f := newFixture(t, false)
	for i := range limits.Highlights {
		p := fmt.Sprintf("f%d.go", i%2)
		if _, _, err := f.svc.AddHighlight(Highlight{Path: p, Start: 1, End: 1, Style: "info"}); err != nil {
			t.Fatalf("highlight %d: %v", i, err)
		}
	}
	_, _, err := f.svc.AddHighlight(Highlight{Path: "g.go", Start: 1, End: 1, Style: "info"})
	if !errors.Is(err, limits.ErrExceeded) {
		t.Fatalf("err = %v, want the highlights limit", err)
	}
	if _, err := f.svc.ClearHighlights("f0.go"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.AddHighlight(Highlight{Path: "g.go", Start: 1, End: 1, Style: "info"}); err != nil {
		t.Errorf("after clearing a file: %v", err)
	}
}

// Normalising the paths of a call runs outside the session lock: while a
// call is stuck in Normalize, every other reader of the session gets its
// answer. With the lock held during normalisation the readers would wait
// for the call and the test would fail at its deadline.
func TestAddHintsNormalizesOutsideTheLock(t *testing.T) {
	f := newFixture(t, false)
	entered, release := make(chan struct{}), make(chan struct{})
	f.svc.opts.Normalize = func(p string) (string, error) {
		if p == "block.go" {
			close(entered)
			<-release
		}
		return p, nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.svc.AddHints(append(hintsN(500, "a"), Hint{Path: "block.go", Style: "a"}))
		done <- err
	}()
	<-entered
	reads := make(chan struct{})
	go func() {
		f.svc.Hints()
		f.svc.OpenFiles()
		f.svc.Highlights()
		f.svc.Active()
		close(reads)
	}()
	select {
	case <-reads:
	case <-time.After(30 * time.Second):
		t.Fatal("session reads blocked while AddHints normalised its paths")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(f.svc.Hints()); n != 501 {
		t.Errorf("%d hints, want 501", n)
	}
}

// BenchmarkAddHints merges n new hints into a session that already holds n:
// linear in n (map merge), where the slice version was quadratic.
func BenchmarkAddHints(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := newFixture(b, false)
			f.svc.opts.MaxHints = 4 * n
			old, hints := hintsN(n, "old"), hintsN(2*n, "new")[n:]
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				f.svc.ClearHints()
				if _, err := f.svc.AddHints(old); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := f.svc.AddHints(hints); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
