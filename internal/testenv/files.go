package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ReadFile returns the bytes of the file at path; an error fails tb.
func ReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// WriteFile writes content to the file at path with permissions perm,
// creating its missing parent directories (0755); an error fails tb.
func WriteFile(tb testing.TB, path, content string, perm fs.FileMode) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		tb.Fatal(err)
	}
}

// WriteFiles writes content to each of names in dir; an error fails tb.
func WriteFiles(tb testing.TB, dir, content string, names ...string) {
	tb.Helper()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
}

// CheckRemoved reports on tb each of gone that is still in dir and each of
// kept that is not.
func CheckRemoved(tb testing.TB, dir string, gone, kept []string) {
	tb.Helper()
	for _, name := range gone {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			tb.Errorf("%s is still there", name)
		}
	}
	for _, name := range kept {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			tb.Errorf("%s was removed: %v", name, err)
		}
	}
}
