package seed

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileMatchesOSReadFile: readFile answers as os.ReadFile (bytes,
// error text, fs.ErrNotExist) for a file, an empty and a large one, a
// symlink, a missing path, a dangling symlink, a directory and a /proc
// file claiming size 0.
func TestReadFileMatchesOSReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	seedFile := write("seed.json", `{"version":"1.0.0"}`)
	paths := []string{
		seedFile,
		write("empty.json", ""),
		write("small.json", "{}"),
		write("exact.json", strings.Repeat("a", 512)),
		write("large.json", strings.Repeat("0123456789abcdef", 70_000)),
		filepath.Join(dir, "missing.json"),
		filepath.Join(dir, "missing", "seed.json"),
		dir,
		filepath.Join("testdata", "valid-seed.json"),
		"/proc/self/status",
		"",
	}
	if err := os.Symlink(seedFile, filepath.Join(dir, "link")); err == nil {
		paths = append(paths, filepath.Join(dir, "link"))
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err == nil {
		paths = append(paths, filepath.Join(dir, "dangling"))
	}
	for _, p := range paths {
		got, err := readFile(p)
		want, wantErr := os.ReadFile(p)
		if p == "/proc/self/status" { // differs between two reads (the process's own counters)
			got, want = got[:bytes.IndexByte(got, '\n')], want[:bytes.IndexByte(want, '\n')]
		}
		if !bytes.Equal(got, want) || errString(err) != errString(wantErr) || errors.Is(err, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) {
			t.Errorf("%s: readFile = %d bytes, %v; os.ReadFile = %d bytes, %v", p, len(got), err, len(want), wantErr)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
