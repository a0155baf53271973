package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Issue 15: Watch returns once syncEntries entries are walked; a larger
// tree is walked after it returns, Ready closes when that walk is done,
// and from then on every directory reports its changes.
func TestWatchLargeTreeInBackground(t *testing.T) {
	files := map[string]string{}
	n := syncEntries/2 + 20 // a directory and a file each
	for i := range n {
		files[fmt.Sprintf("d%04d/f.ts", i)] = "x"
	}
	w, root := newWorkspace(t, files)
	release := make(chan struct{})
	walkHook = func() { <-release }
	t.Cleanup(func() { walkHook = nil })

	wt, err := w.Watch(&WatchOptions{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Watch returned while the hook holds the rest of the walk.
	select {
	case <-wt.Ready():
		t.Fatal("Ready closed before the background walk ran")
	default:
	}
	close(release)
	select {
	case <-wt.Ready():
	case <-time.After(30 * time.Second):
		t.Fatal("Ready not closed within 30 s")
	}
	defer wt.Close()
	last := fmt.Sprintf("d%04d/g.ts", n-1)
	must(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(last)), []byte("g"), 0o644))
	collect(t, wt, FileEvent{OpAdd, last})
	must(t, os.WriteFile(filepath.Join(root, "d0000", "f.ts"), []byte("changed"), 0o644))
	collect(t, wt, FileEvent{OpChange, "d0000/f.ts"})
}

// A small project is watched whole when Watch returns, and Close during a
// background walk stops it.
func TestWatchReadyAndCloseDuringWalk(t *testing.T) {
	w, _ := newWorkspace(t, map[string]string{"a/b.ts": ""})
	wt, err := w.Watch(nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-wt.Ready():
	case <-time.After(30 * time.Second):
		t.Fatal("small project: Ready not closed")
	}
	must(t, wt.Close())

	files := map[string]string{}
	for i := range syncEntries/2 + 5 {
		files[fmt.Sprintf("d%04d/f.ts", i)] = "x"
	}
	w, _ = newWorkspace(t, files)
	release := make(chan struct{})
	walkHook = func() { <-release }
	t.Cleanup(func() { walkHook = nil })
	wt, err = w.Watch(nil)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- wt.Close() }()
	close(release)
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close during the background walk did not return")
	}
	if _, ok := <-wt.Events(); ok {
		t.Error("Events not closed after Close")
	}
}

func TestWatchMissingRoot(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{"a.ts": ""})
	must(t, os.RemoveAll(root))
	if wt, err := w.Watch(nil); err == nil {
		wt.Close()
		t.Fatal("Watch of a removed project: no error")
	}
}

// The watcher's own walk records what filepath.WalkDir with the old
// rules recorded: every entry but excluded directories and what is below
// them, symlinks as files, an unreadable directory without its children.
func TestWatchWalkMatchesWalkDir(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{
		"a.ts": "", "src/b.ts": "", "src/c/d.go": "", "src/c/e/f.md": "", "node_modules/x/y.js": "",
		"src/.git/HEAD": "", "z/empty/.keep": "", "locked/secret.txt": "",
	})
	must(t, os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "link")))
	must(t, os.Mkdir(filepath.Join(root, "z", "nothing"), 0o755))
	must(t, os.Chmod(filepath.Join(root, "locked"), 0o000))
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, "locked"), 0o755) })

	want := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return nil
		}
		if d.IsDir() && Excluded(d.Name()) {
			return filepath.SkipDir
		}
		rel, _ := within(root, path)
		want[rel] = d.IsDir()
		return nil
	})
	must(t, err)
	wt, err := w.Watch(nil)
	must(t, err)
	defer wt.Close()
	<-wt.Ready()
	// Ready is closed by the watcher's goroutine after the walk: known is
	// no longer written until an event arrives, and none is provoked.
	if wt.known.len() != len(want) {
		t.Errorf("known %d paths, WalkDir %d", wt.known.len(), len(want))
	}
	for p, dir := range want {
		if d, ok := wt.known.get(p); !ok || d != dir {
			t.Errorf("%s: known %v %v, want dir %v", p, d, ok, dir)
		}
	}
}
