package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project creates a project directory with files (relative path → content)
// and returns its path.
func project(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "proj")
	if err := os.MkdirAll(root, 0o755); err != nil {
		tb.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	root := "/work/proj"
	alias := "/alias/proj"
	tests := []struct {
		in, want string
		err      error
	}{
		{"src/a.ts", "src/a.ts", nil},
		{"./src/a.ts", "src/a.ts", nil},
		{"src//x/../a.ts", "src/a.ts", nil},
		{"/work/proj/src/a.ts", "src/a.ts", nil},
		{"/alias/proj/src/a.ts", "src/a.ts", nil},
		{"/work/proj", ".", nil},
		{".", ".", nil},
		{"a/..", ".", nil},
		{"", "", ErrInvalidPath},
		{"src/\x00a.ts", "", ErrInvalidPath},
		{"../../etc/passwd", "", ErrOutsideProject},
		{"src/../../x", "", ErrOutsideProject},
		{"..", "", ErrOutsideProject},
		{"/etc/passwd", "", ErrOutsideProject},
		{"/work/proj-evil/x", "", ErrOutsideProject},
		{"/work/projx", "", ErrOutsideProject},
		{"/work/proj/../proj-evil/x", "", ErrOutsideProject},
		{"..foo/bar", "..foo/bar", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := normalize(root, alias, tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("normalize(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// EC-10, EC-11, scenario 3.9: the full guard with real symlinks.
func TestResolve(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"src/a.ts": "a", "README.md": "r"})
	outside := filepath.Join(filepath.Dir(root), "secret")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "key"), []byte("k"), 0o600)
	evil := root + "-evil"
	os.MkdirAll(evil, 0o755)
	must(t, os.Symlink(outside, filepath.Join(root, "out")))
	must(t, os.Symlink(filepath.Join(outside, "key"), filepath.Join(root, "key-link")))
	must(t, os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "in")))
	must(t, os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "dangling")))
	// The project reached through a symlink: both sides are resolved.
	link := filepath.Join(t.TempDir(), "link-to-proj")
	must(t, os.Symlink(root, link))

	g, err := NewGuard(link)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want string
		err      error
	}{
		{"src/a.ts", "src/a.ts", nil},
		{filepath.Join(root, "src/a.ts"), "src/a.ts", nil},
		{filepath.Join(link, "src/a.ts"), "src/a.ts", nil},
		{"in/a.ts", "src/a.ts", nil},                              // symlink inside → real path
		{"src/new/deeper/file.ts", "src/new/deeper/file.ts", nil}, // not existing yet: allowed
		{"out/key", "", ErrOutsideProject},
		{"out/new.txt", "", ErrOutsideProject},
		{"key-link", "", ErrOutsideProject},
		{"dangling", "", ErrInvalidPath},
		{"dangling/x", "", ErrInvalidPath},
		{"../secret/key", "", ErrOutsideProject},
		{filepath.Join(evil, "x"), "", ErrOutsideProject},
		{filepath.Join(outside, "key"), "", ErrOutsideProject},
		{"", "", ErrInvalidPath},
		{"a\x00b", "", ErrInvalidPath},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := g.Resolve(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Resolve(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if got.Rel != tt.want {
				t.Errorf("Resolve(%q).Rel = %q, want %q", tt.in, got.Rel, tt.want)
			}
			if err == nil && !strings.HasPrefix(got.Abs, g.Root()+string(filepath.Separator)) {
				t.Errorf("Resolve(%q).Abs = %q, not under %q", tt.in, got.Abs, g.Root())
			}
		})
	}
	if _, err := NewGuard(filepath.Join(root, "README.md")); err == nil {
		t.Error("NewGuard(file) succeeded, want error")
	}
	if _, err := NewGuard(filepath.Join(root, "missing")); err == nil {
		t.Error("NewGuard(missing) succeeded, want error")
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// FuzzGuard: whatever the input, Resolve never panics and never returns a
// path outside the project's real root.
func FuzzGuard(f *testing.F) {
	root := project(f, map[string]string{"src/a.ts": "a"})
	outside := filepath.Join(filepath.Dir(root), "outside")
	os.MkdirAll(outside, 0o755)
	os.Symlink(outside, filepath.Join(root, "esc"))
	os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "in"))
	g, err := NewGuard(root)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"src/a.ts", "../x", "/etc/passwd", root + "-evil/x", root + "/../x", "esc/x",
		"in/../../x", "a\x00", "", ".", "./././src", "src/../..", "//", root, "in/a.ts", "esc", "\\..\\x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := g.Resolve(p)
		if err != nil {
			return
		}
		if got.Abs != g.Root() && !strings.HasPrefix(got.Abs, g.Root()+string(filepath.Separator)) {
			t.Fatalf("Resolve(%q).Abs = %q escapes %q", p, got.Abs, g.Root())
		}
		if got.Rel == ".." || strings.HasPrefix(got.Rel, "../") || strings.HasPrefix(got.Rel, "/") {
			t.Fatalf("Resolve(%q).Rel = %q escapes", p, got.Rel)
		}
		// One key whatever the spelling: the normalised form resolves to the same path.
		lex, err := g.Normalize(p)
		if err != nil {
			t.Fatalf("Resolve(%q) accepted but Normalize failed: %v", p, err)
		}
		if again, err := g.Resolve(lex); err != nil || again != got {
			t.Fatalf("Resolve(Normalize(%q)=%q) = %+v, %v; want %+v", p, lex, again, err, got)
		}
		if real, err := filepath.EvalSymlinks(got.Abs); err == nil {
			if real != g.Root() && !strings.HasPrefix(real, g.Root()+string(filepath.Separator)) {
				t.Fatalf("Resolve(%q) = %q, really %q outside", p, got.Abs, real)
			}
		}
	})
}
