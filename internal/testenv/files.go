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
