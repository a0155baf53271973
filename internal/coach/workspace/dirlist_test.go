//go:build linux

package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// listed is a listing as text: one "name/" (directory) or "name" per line.
func listed(l *dirListing) string {
	var b strings.Builder
	for i, e := range l.ents {
		b.Write(l.name(i))
		if e.isDir {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// readDirListed is os.ReadDir's answer in the same form, the oracle.
func readDirListed(path string) (string, error) {
	entries, err := os.ReadDir(path)
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Name())
		if e.IsDir() {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	return b.String(), err
}

// sameAsReadDir checks dirLister.list(path) against os.ReadDir(path):
// the same entries in the same order, and an error exactly when it fails.
func sameAsReadDir(t *testing.T, l *dirLister, path string, depth int) {
	t.Helper()
	want, wantErr := readDirListed(path)
	got, err := l.list(path, depth)
	if listed(got) != want {
		t.Errorf("list(%q):\n%s\nos.ReadDir:\n%s", path, listed(got), want)
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("list(%q) error %v, os.ReadDir %v", path, err, wantErr)
	}
	var pe *os.PathError
	if err != nil && !errors.As(err, &pe) {
		t.Errorf("list(%q) error %#v, not an *os.PathError", path, err)
	}
}

// odd names: bytes that are not UTF-8, spaces, newlines, dashes, dots,
// the longest name ext4 allows, names that sort around each other.
var oddNames = []string{"a", "B", "b", "a b", "a\nb", "-rf", ".hidden", "..x", "...", "\xff\xfe", "é", "e\u0301",
	strings.Repeat("n", 255), "file.ts", "file.ts~", "#x#", "a.b.c", "z", "Z", "0", "~", "\t", "日本"}

func TestDirListOddEntries(t *testing.T) {
	dir := t.TempDir()
	for i, n := range oddNames {
		p := filepath.Join(dir, n)
		switch i % 4 {
		case 0:
			must(t, os.WriteFile(p, nil, 0o644))
		case 1:
			must(t, os.Mkdir(p, 0o755))
		case 2:
			must(t, os.Symlink(dir, p)) // a link to a directory is not a directory
		case 3:
			must(t, syscall.Mkfifo(p, 0o644))
		}
	}
	must(t, os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "dangling")))
	must(t, os.Mkdir(filepath.Join(dir, "locked"), 0o000))
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	l := &dirLister{}
	sameAsReadDir(t, l, dir, 0)
	sameAsReadDir(t, l, filepath.Join(dir, "locked"), 1) // unreadable, unless run as root
	sameAsReadDir(t, l, filepath.Join(dir, "a"), 1)      // a file
	sameAsReadDir(t, l, filepath.Join(dir, "nothing"), 1)
	sameAsReadDir(t, l, filepath.Join(dir, "dangling"), 1)
	sameAsReadDir(t, l, filepath.Join(dir, "a b"), 1) // a link to dir: listed through it, as os.ReadDir does
}

// TestDirListLarge lists a directory of more records than one getdents64
// call returns.
func TestDirListLarge(t *testing.T) {
	dir := t.TempDir()
	for i := range 800 {
		name := fmt.Sprintf("%04d-%s", i, strings.Repeat("x", i%250))
		if i%7 == 0 {
			must(t, os.Mkdir(filepath.Join(dir, name), 0o755))
		} else {
			must(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
		}
	}
	l := &dirLister{}
	sameAsReadDir(t, l, dir, 0)
	if got, _ := l.list(dir, 0); len(got.ents) != 800 || len(got.names) < 4*direntBufSize {
		t.Errorf("%d entries, %d bytes of names; want 800, more than four getdents64 buffers", len(got.ents), len(got.names))
	}
}

// TestDirListLevels: a listing stays as it was while deeper ones are made
// (the walk iterates a directory while it lists its subdirectories), and
// a level is reused for the next directory at that depth.
func TestDirListLevels(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x", "a/y", "b/z", "c"} {
		must(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, p), nil, 0o644))
	}
	l := &dirLister{}
	top, err := l.list(dir, 0)
	must(t, err)
	before := listed(top)
	a, err := l.list(filepath.Join(dir, "a"), 1)
	must(t, err)
	if listed(a) != "x\ny\n" {
		t.Errorf("a: %q", listed(a))
	}
	b, err := l.list(filepath.Join(dir, "b"), 1)
	must(t, err)
	if listed(b) != "z\n" || listed(top) != before || before != "a/\nb/\nc\n" {
		t.Errorf("b: %q, top %q (was %q)", listed(b), listed(top), before)
	}
}

// FuzzDirList builds a directory from the input (names and kinds of
// entries) and checks dirLister against os.ReadDir, the code it stands in
// for, on it and on each entry listed as a directory.
func FuzzDirList(f *testing.F) {
	f.Add([]byte("a\x00b\x01c\x02d\x03"))
	f.Add([]byte("\xff\xfe\x01-rf\x00.x\x02"))
	f.Add([]byte(strings.Repeat("long", 70) + "\x01"))
	f.Add([]byte("z\x00Z\x00\x00y\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		// Each name ends at a byte below 4, which says its kind. A name
		// already made is skipped (writing to a FIFO would block).
		start, made := 0, map[string]bool{}
		for i, c := range data {
			if c >= 4 {
				continue
			}
			name := string(data[start:i])
			start = i + 1
			if name == "" || name == "." || name == ".." || len(name) > 255 || strings.ContainsAny(name, "/\x00") || made[name] {
				continue
			}
			made[name] = true
			p := filepath.Join(dir, name)
			switch c {
			case 0:
				_ = os.WriteFile(p, nil, 0o644)
			case 1:
				_ = os.Mkdir(p, 0o755)
				_ = os.WriteFile(filepath.Join(p, name), nil, 0o644)
			case 2:
				_ = os.Symlink(name+"-target", p)
			case 3:
				_ = syscall.Mkfifo(p, 0o644)
			}
		}
		l := &dirLister{}
		sameAsReadDir(t, l, dir, 0)
		top, _ := l.list(dir, 0)
		for i, e := range top.ents {
			sameAsReadDir(t, l, filepath.Join(dir, string(top.name(i))), 1)
			if e.isDir {
				sameAsReadDir(t, l, filepath.Join(dir, string(top.name(i)), "missing"), 2)
			}
		}
	})
}
