package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCoalesce(t *testing.T) {
	tests := []struct {
		name string
		in   []FileEvent
		want []FileEvent
	}{
		{"add then change is add", []FileEvent{{OpAdd, "a"}, {OpChange, "a"}, {OpChange, "a"}}, []FileEvent{{OpAdd, "a"}}},
		{"add then unlink cancels", []FileEvent{{OpAdd, "tmp"}, {OpChange, "tmp"}, {OpUnlink, "tmp"}, {OpChange, "b"}}, []FileEvent{{OpChange, "b"}}},
		{"unlink then add is change", []FileEvent{{OpUnlink, "a"}, {OpAdd, "a"}}, []FileEvent{{OpChange, "a"}}},
		{"change then unlink is unlink", []FileEvent{{OpChange, "a"}, {OpUnlink, "a"}}, []FileEvent{{OpUnlink, "a"}}},
		{"dir created and removed cancels", []FileEvent{{OpAddDir, "d"}, {OpUnlinkDir, "d"}}, []FileEvent{}},
		{"cancelled then re-added appears once", []FileEvent{{OpAdd, "a"}, {OpUnlink, "a"}, {OpAdd, "a"}}, []FileEvent{{OpAdd, "a"}}},
		{"first-seen order", []FileEvent{{OpChange, "b"}, {OpAdd, "a"}, {OpChange, "b"}}, []FileEvent{{OpChange, "b"}, {OpAdd, "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p pending
			for _, e := range tt.in {
				p.add(e)
			}
			if diff := cmp.Diff(tt.want, p.take()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !p.empty() {
				t.Error("window not empty after take")
			}
		})
	}
}

// collect reads batches until every wanted event has been seen or the
// deadline passes, and returns everything seen.
func collect(tb testing.TB, wt *Watcher, want ...FileEvent) []FileEvent {
	tb.Helper()
	var got []FileEvent
	deadline := time.After(5 * time.Second)
	missing := func() []FileEvent {
		var m []FileEvent
		for _, w := range want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				m = append(m, w)
			}
		}
		return m
	}
	for len(missing()) > 0 {
		select {
		case batch, ok := <-wt.Events():
			if !ok {
				tb.Fatalf("events closed; got %v, missing %v", got, missing())
			}
			got = append(got, batch...)
		case <-deadline:
			tb.Fatalf("timed out; got %v, missing %v", got, missing())
		}
	}
	return got
}

// Scenarios 3.7, 3.8, SC-015: add, change, unlink, new directories watched
// recursively, excluded directories ignored.
func TestWatcher(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{"src/a.ts": "a", "node_modules/x.js": ""})
	wt, err := w.Watch(&WatchOptions{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}

	write("src/b.ts", "b")
	collect(t, wt, FileEvent{OpAdd, "src/b.ts"})
	write("src/a.ts", "changed")
	collect(t, wt, FileEvent{OpChange, "src/a.ts"})
	must(t, os.Remove(filepath.Join(root, "src/b.ts")))
	collect(t, wt, FileEvent{OpUnlink, "src/b.ts"})

	// A directory tree created after start: its files are reported and it is watched.
	write("new/deep/c.ts", "c")
	collect(t, wt, FileEvent{OpAddDir, "new"}, FileEvent{OpAdd, "new/deep/c.ts"})
	write("new/deep/d.ts", "d")
	collect(t, wt, FileEvent{OpAdd, "new/deep/d.ts"})

	// Excluded directories produce nothing; a later real event proves the
	// excluded writes were dropped, not delayed.
	write("node_modules/y.js", "y")
	write("dist/out.js", "o")
	write("src/marker.ts", "m")
	got := collect(t, wt, FileEvent{OpAdd, "src/marker.ts"})
	for _, e := range got {
		if excludedPath(e.Path) {
			t.Errorf("event for excluded path: %v", e)
		}
	}

	// Workspace writes (temp file + rename) surface as one change of the target.
	if _, err := w.WriteFile("src/a.ts", "saved"); err != nil {
		t.Fatal(err)
	}
	got = collect(t, wt, FileEvent{OpChange, "src/a.ts"})
	for _, e := range got {
		if e.Path != "src/a.ts" {
			t.Errorf("atomic write leaked event %v", e)
		}
	}
	must(t, os.RemoveAll(filepath.Join(root, "new")))
	collect(t, wt, FileEvent{OpUnlinkDir, "new"})
}

// FR-037, EC-16: Close is idempotent, ends the goroutine and closes Events.
func TestWatcherClose(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{"a.ts": ""})
	before := runtime.NumGoroutine()
	wt, err := w.Watch(nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "b.ts"), []byte("x"), 0o644) // pending at close: discarded
	if err := wt.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := wt.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for range wt.Events() { // drains and ends: the channel is closed
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("goroutines = %d after Close, want <= %d", n, before)
	}
}

// A renamed directory is an unlinkDir of the old path and an addDir (with
// its contents) at the new one; the new location keeps being watched.
func TestWatcherRenameDir(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{"old/sub/a.ts": "a"})
	wt, err := w.Watch(&WatchOptions{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	must(t, os.Rename(filepath.Join(root, "old"), filepath.Join(root, "renamed")))
	collect(t, wt, FileEvent{OpUnlinkDir, "old"}, FileEvent{OpAddDir, "renamed"}, FileEvent{OpAdd, "renamed/sub/a.ts"})
	must(t, os.WriteFile(filepath.Join(root, "renamed/sub/b.ts"), []byte("b"), 0o644))
	got := collect(t, wt, FileEvent{OpAdd, "renamed/sub/b.ts"})
	for _, e := range got {
		if e.Path == "old/sub/b.ts" {
			t.Errorf("event reported under the old name: %v", e)
		}
	}
}
