package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/limits"
)

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
