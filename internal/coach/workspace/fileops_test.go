package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCreateRenameDelete: files and directories are created (with their
// parents), renamed and deleted inside the project only; nothing existing
// is replaced, the project itself and escapes are refused.
func TestCreateRenameDelete(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"src/a.ts": "a\n", "node_modules/x/i.js": "x"})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if p, err := w.Create("src/new/b.ts", false); err != nil || p.Rel != "src/new/b.ts" {
		t.Fatalf("create file: %+v, %v", p, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "src/new/b.ts")); err != nil || len(b) != 0 {
		t.Errorf("created file: %q, %v", b, err)
	}
	if _, err := w.Create("docs", true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "docs")); err != nil || !fi.IsDir() {
		t.Errorf("created dir: %v", err)
	}
	if _, err := w.Create("src/a.ts", false); !errors.Is(err, ErrExists) {
		t.Errorf("create over a file: got %v, want ErrExists", err)
	}
	for _, bad := range []string{"../evil.ts", "/etc/evil", "out/evil.ts", ".", "node_modules/y.js", ".git/config"} {
		if _, err := w.Create(bad, false); err == nil {
			t.Errorf("create %q: got nil error", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "evil.ts")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was created outside the project: %v", err)
	}

	if _, err := w.UpdateBuffer("src/a.ts", "edited", Cursor{}); err != nil {
		t.Fatal(err)
	}
	from, to, err := w.Rename("src/a.ts", "lib/a2.ts")
	if err != nil || from.Rel != "src/a.ts" || to.Rel != "lib/a2.ts" {
		t.Fatalf("rename: %+v %+v %v", from, to, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "lib/a2.ts")); err != nil || string(b) != "a\n" {
		t.Errorf("renamed file: %q, %v", b, err)
	}
	if _, ok, _ := w.Buffer("src/a.ts"); ok {
		t.Error("the renamed file's buffer was kept")
	}
	if _, _, err := w.Rename("lib/a2.ts", "src/new/b.ts"); !errors.Is(err, ErrExists) {
		t.Errorf("rename over a file: got %v, want ErrExists", err)
	}
	if _, _, err := w.Rename("src", "src/inner"); err == nil {
		t.Error("moving a directory into itself: got nil error")
	}
	if _, _, err := w.Rename("lib/a2.ts", "../a2.ts"); err == nil {
		t.Error("rename out of the project: got nil error")
	}
	if _, _, err := w.Rename("missing.ts", "m2.ts"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("rename a missing file: got %v", err)
	}

	if _, err := w.Delete("src"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "src")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("deleted dir still there: %v", err)
	}
	for _, bad := range []string{".", "", "../x", "out"} {
		if _, err := w.Delete(bad); err == nil && bad != "out" {
			t.Errorf("delete %q: got nil error", bad)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("deleting the symlink removed its target: %v", err)
	}
}

// TestSearch: matching lines of text files, case-insensitively, leaving
// out excluded directories and binary files; bounded.
func TestSearch(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/cart.ts":               "export function total(items) {\n  return items.reduce((s, i) => s + i.Price, 0);\n}\n",
		"README.md":                 "# Cart\nThe price is right\n",
		"node_modules/lib/index.js": "price\n",
		"logo.png":                  "price",
		"bin.dat":                   "price\x00\x00",
	}
	w, _ := newWorkspace(t, files)
	res, err := w.Search("PRICE")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Path+":"+itoa(h.Line)+":"+itoa(h.Column))
	}
	if want := "README.md:2:5 src/cart.ts:2:39"; strings.Join(got, " ") != want {
		t.Errorf("hits: got %v, want %s", got, want)
	}
	if res.Truncated {
		t.Error("truncated on a small project")
	}
	if _, err := w.Search("  "); err == nil {
		t.Error("empty search: got nil error")
	}
	if _, err := w.Search(strings.Repeat("x", SearchMaxQuery+1)); err == nil {
		t.Error("long search: got nil error")
	}

	many := map[string]string{}
	for i := range SearchMaxHits + 10 {
		many["f"+itoa(i)+".txt"] = "needle\n"
	}
	w, _ = newWorkspace(t, many)
	if res, err := w.Search("needle"); err != nil || len(res.Hits) != SearchMaxHits || !res.Truncated {
		t.Errorf("bounded: %d hits, truncated %v, %v", len(res.Hits), res.Truncated, err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
