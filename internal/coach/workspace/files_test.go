package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/limits"
)

var t0 = time.Date(2026, 2, 11, 10, 0, 0, 0, time.UTC)

func newWorkspace(tb testing.TB, files map[string]string) (*Workspace, string) {
	tb.Helper()
	root := project(tb, files)
	w, err := New(root, &Options{Now: func() time.Time { return t0 }})
	if err != nil {
		tb.Fatal(err)
	}
	return w, root
}

func TestLanguage(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"src/a.ts": "typescript", "App.TSX": "typescript", "x.js": "javascript", "m.mjs": "javascript",
		"a.py": "python", "main.go": "go", "lib.rs": "rust", "README.md": "markdown", "a.json": "json",
		"Dockerfile": "dockerfile", "dockerfile.dev": "dockerfile", "Makefile": "makefile", "go.mod": "go.mod",
		".env.local": "dotenv", "style.scss": "scss", "q.sql": "sql", "c.yml": "yaml", "x.unknownext": "plaintext",
		"noext": "plaintext", "dir/.gitignore": "ignore", "a.h": "c", "b.hpp": "cpp", "run.sh": "shell",
	}
	for name, want := range tests {
		if got := Language(name); got != want {
			t.Errorf("Language(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLineCount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n": 1, "\n\n": 2} {
		if got := LineCount(in); got != want {
			t.Errorf("LineCount(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestBinaryDetection(t *testing.T) {
	t.Parallel()
	if !IsBinaryName("img/logo.PNG") || IsBinaryName("a.ts") {
		t.Error("IsBinaryName wrong for logo.PNG or a.ts")
	}
	late := strings.Repeat("a", sniffLen) + "\x00"
	tests := []struct {
		data string
		want bool
	}{{"plain text", false}, {"a\x00b", true}, {late, false}, {"", false}}
	for _, tt := range tests {
		if got := LooksBinary([]byte(tt.data)); got != tt.want {
			t.Errorf("LooksBinary(len %d) = %v, want %v", len(tt.data), got, tt.want)
		}
	}
}

// Scenario 3.1, SC-010, EC-12.
func TestReadFile(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"src/a.ts": "const a = 1;\nexport {a}\n", "bin.dat2": "x\x00y", "logo.png": "PNG"})
	got, err := w.ReadFile("./src/a.ts")
	if err != nil {
		t.Fatal(err)
	}
	want := File{Path: "src/a.ts", Content: "const a = 1;\nexport {a}\n", Language: "typescript", LineCount: 2, Size: 24}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadFile (-want +got):\n%s", diff)
	}
	for _, name := range []string{"bin.dat2", "logo.png"} {
		f, err := w.ReadFile(name)
		if err != nil || !f.Binary || f.Content != "" {
			t.Errorf("ReadFile(%s) = %+v, %v; want binary without content", name, f, err)
		}
	}
	if _, err := w.ReadFile("missing.ts"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotExist", err)
	}
	if _, err := w.ReadFile("../../etc/passwd"); !errors.Is(err, ErrOutsideProject) {
		t.Errorf("ReadFile(traversal) = %v, want ErrOutsideProject", err)
	}
	if _, err := w.ReadFile("src"); err == nil {
		t.Error("ReadFile(directory) succeeded")
	}
	small, _ := New(root, &Options{MaxReadBytes: 4})
	if _, err := small.ReadFile("src/a.ts"); err == nil {
		t.Error("ReadFile over MaxReadBytes succeeded")
	}
}

// Scenario 3.2, SC-011, FR-025, FR-029.
func TestWriteFile(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"src/a.ts": "old"})
	os.Chmod(filepath.Join(root, "src/a.ts"), 0o600)
	if _, err := w.UpdateBuffer("src/a.ts", "new", Cursor{1, 4}); err != nil {
		t.Fatal(err)
	}
	p, err := w.WriteFile(filepath.Join(root, "src/a.ts"), "saved")
	if err != nil || p.Rel != "src/a.ts" {
		t.Fatalf("WriteFile = %+v, %v", p, err)
	}
	data, _ := os.ReadFile(filepath.Join(root, "src/a.ts"))
	if string(data) != "saved" {
		t.Errorf("disk = %q, want saved", data)
	}
	if info, _ := os.Stat(filepath.Join(root, "src/a.ts")); info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600 kept", info.Mode().Perm())
	}
	b, ok, _ := w.Buffer("src/a.ts")
	if !ok || b.Dirty || b.Content != "saved" || b.CursorPosition != (Cursor{1, 4}) {
		t.Errorf("buffer after save = %+v, want clean with saved content and cursor kept", b)
	}
	// Parents are created; no temp files are left behind.
	if _, err := w.WriteFile("new/dir/b.ts", "b"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "new/dir"))
	if len(entries) != 1 || entries[0].Name() != "b.ts" {
		t.Errorf("new/dir holds %v, want only b.ts", entries)
	}
	for _, bad := range []string{"../x.ts", "/tmp/x.ts", root + "-evil/x", ""} {
		if _, err := w.WriteFile(bad, "x"); err == nil {
			t.Errorf("WriteFile(%q) succeeded", bad)
		}
	}
	if _, err := w.WriteFile("img.png", "x"); !errors.Is(err, ErrBinary) {
		t.Errorf("WriteFile(png) = %v, want ErrBinary", err)
	}
	if _, err := w.WriteFile(".", "x"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("WriteFile(.) = %v, want ErrInvalidPath", err)
	}
	if _, err := w.WriteFile("src", "x"); err == nil {
		t.Error("WriteFile(directory) succeeded")
	}
}

// listTree returns every path under root, slash-separated and sorted.
func listTree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(root, p); rel != "." {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// A path over the depth or length limit is refused before anything is
// created; one at the limit is saved.
func TestWriteFileLimits(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"pre/a.ts": "a"})
	before := listTree(t, root)
	for _, tc := range []struct {
		name, path string
		want       limits.Error
	}{
		{"deep", strings.Repeat("d/", limits.PathDepth) + "f.ts", limits.Error{Field: "path", Limit: limits.PathDepth, Actual: limits.PathDepth + 1, Unit: "components"}},
		{"very deep", strings.Repeat("d/", 2039) + "f.ts", limits.Error{Field: "path", Limit: limits.PathDepth, Actual: 2040, Unit: "components"}},
		{"deep under an existing dir", "pre/" + strings.Repeat("d/", limits.PathDepth-1) + "f.ts", limits.Error{Field: "path", Limit: limits.PathDepth, Actual: limits.PathDepth + 1, Unit: "components"}},
		{"long", "pre/" + strings.Repeat("x", limits.PathBytes), limits.Error{Field: "path", Limit: limits.PathBytes, Actual: limits.PathBytes + 4, Unit: "bytes"}},
		{"deep absolute", filepath.Join(root, strings.Repeat("d/", limits.PathDepth)+"f.ts"), limits.Error{Field: "path", Limit: limits.PathDepth, Actual: limits.PathDepth + 1, Unit: "components"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.WriteFile(tc.path, "x")
			le := limits.As(err)
			if le == nil || *le != tc.want {
				t.Fatalf("err = %v, want %v", err, &tc.want)
			}
			if diff := slices.Compare(before, listTree(t, root)); diff != 0 {
				t.Errorf("project changed: %v", listTree(t, root))
			}
		})
	}
	atLimit := strings.Repeat("d/", limits.PathDepth-1) + "f.ts"
	if _, err := w.WriteFile(atLimit, "x"); err != nil {
		t.Fatalf("a path at the depth limit: %v", err)
	}
}

// A save that fails after creating parent directories removes exactly
// those; directories that existed before stay, with their files.
func TestWriteFileRemovesCreatedDirs(t *testing.T) {
	w, root := newWorkspace(t, map[string]string{"pre/a.ts": "a", "pre/empty/.keep": ""})
	if err := os.Remove(filepath.Join(root, "pre/empty/.keep")); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, root)
	failing := errors.New("disk full")
	realCreateTemp := createTemp
	createTemp = func(*os.Root, string, string) (*os.File, string, error) { return nil, "", failing }
	t.Cleanup(func() { createTemp = realCreateTemp })
	for _, p := range []string{"pre/empty/new1/new2/f.ts", "pre/new/f.ts", "top/x/y/z.ts", "pre/empty/f.ts"} {
		if _, err := w.WriteFile(p, "x"); !errors.Is(err, failing) {
			t.Fatalf("WriteFile(%s) = %v, want the write failure", p, err)
		}
		if got := listTree(t, root); !slices.Equal(before, got) {
			t.Fatalf("after the failed save of %s the project holds %v, want %v", p, got, before)
		}
	}
	createTemp = realCreateTemp
	// The target is an existing directory: no directory is created or removed.
	if _, err := w.WriteFile("pre/empty", "x"); err == nil {
		t.Fatal("saving over a directory succeeded")
	}
	if got := listTree(t, root); !slices.Equal(before, got) {
		t.Errorf("after saving over a directory the project holds %v, want %v", got, before)
	}
	// A parent that is a file: nothing is created.
	if _, err := w.WriteFile("pre/a.ts/b/c.ts", "x"); err == nil {
		t.Fatal("saving under a file succeeded")
	}
	if got := listTree(t, root); !slices.Equal(before, got) {
		t.Errorf("after saving under a file the project holds %v, want %v", got, before)
	}
	if _, err := w.WriteFile("pre/empty/new1/f.ts", "x"); err != nil {
		t.Fatalf("a save after the failures: %v", err)
	}
}
