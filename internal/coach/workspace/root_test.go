package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// outsideDir is a directory next to the project holding secret.txt.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A symlink leading outside the project and a path climbing out with ".."
// are refused for reading and writing, and nothing outside is touched.
func TestEscapesRefused(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"src/a.go": "package a\n"})
	outside := outsideDir(t)
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"out/secret.txt", "src/../" + filepath.ToSlash(rel), "../x/secret.txt"} {
		if f, err := w.ReadFile(p); !errors.Is(err, ErrOutsideProject) || f.Content != "" {
			t.Errorf("ReadFile(%q) = %q, %v; want ErrOutsideProject", p, f.Content, err)
		}
		if _, err := w.WriteFile(p, "x"); !errors.Is(err, ErrOutsideProject) {
			t.Errorf("WriteFile(%q) = %v; want ErrOutsideProject", p, err)
		}
	}
	if _, err := w.WriteFile("out/new.txt", "x"); !errors.Is(err, ErrOutsideProject) {
		t.Errorf("WriteFile through the symlink = %v; want ErrOutsideProject", err)
	}
	if got, _ := os.ReadDir(outside); len(got) != 1 {
		t.Errorf("the outside directory holds %d entries, want only secret.txt", len(got))
	}
}

// swapForSymlink replaces the project directory sub with a symlink to
// target, as another process could between the guard's check and the open.
func swapForSymlink(t *testing.T, root, sub, target string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(root, sub)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, sub)); err != nil {
		t.Fatal(err)
	}
}

// The open goes through the project's os.Root: a directory swapped for a
// symlink to outside after the guard accepted the path is not followed out
// (no check-then-open race), for reads, writes and new directories.
func TestSwapAfterCheckStaysInside(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"sub/secret.txt": "inside", "sub/d/keep": ""})
	outside := outsideDir(t)
	read, err := w.guard.Resolve("sub/secret.txt")
	if err != nil {
		t.Fatal(err)
	}
	write, err := w.guard.Resolve("sub/new.txt")
	if err != nil {
		t.Fatal(err)
	}
	deep, err := w.guard.Resolve("sub/d/e/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(outside)
	swapForSymlink(t, root, "sub", outside)

	if data, _, err := w.read(read); err == nil || string(data) == "secret" {
		t.Errorf("read after the swap = %q, %v; want an error", data, err)
	}
	if err := writeAtomic(w.guard.fs, filepath.FromSlash(write.Rel), []byte("x")); err == nil {
		t.Error("writeAtomic after the swap succeeded")
	}
	if _, err := mkdirs(w.guard.fs, filepath.Dir(filepath.FromSlash(deep.Rel))); err == nil {
		t.Error("mkdirs after the swap succeeded")
	}
	after, _ := os.ReadDir(outside)
	if !slices.EqualFunc(before, after, func(a, b os.DirEntry) bool { return a.Name() == b.Name() }) {
		t.Errorf("the outside directory changed: %v, was %v", after, before)
	}
	if tree, err := w.Tree(); err != nil {
		t.Fatal(err)
	} else {
		for _, n := range tree.Children {
			if n.Name == "sub" && len(n.Children) != 0 {
				t.Errorf("the tree lists the outside directory's files under sub: %v", n.Children)
			}
		}
	}
}
