package testenv

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// DirState is what [Snapshot] records of a directory: each file's path
// with its modification time and bytes, and under the key "HEAD" the
// commit its git repository is at (empty when it is not one).
type DirState map[string]string

// Snapshot records every file below dir and its repository's HEAD, so a
// test can prove nothing was written there ([AssertUnchanged]). Git's own
// files are left out: "git status" refreshes the index's stat cache.
func Snapshot(tb testing.TB, dir string) DirState {
	tb.Helper()
	st := DirState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st[p] = info.ModTime().Format(time.RFC3339Nano) + "\n" + string(b)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	head, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	st["HEAD"] = string(head)
	return st
}

// AssertSame fails tb unless two snapshots are equal: the same files with
// the same bytes and modification times, at the same commit.
func AssertSame(tb testing.TB, before, after DirState) {
	tb.Helper()
	if diff := cmp.Diff(before, after); diff != "" {
		tb.Errorf("directory changed (-before +after):\n%s", diff)
	}
}

// AssertUnchanged fails tb unless dir is exactly as when before was taken.
func AssertUnchanged(tb testing.TB, dir string, before DirState) {
	tb.Helper()
	AssertSame(tb, before, Snapshot(tb, dir))
}
