package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Scenario 3.6, SC-014, FR-033, FR-034.
func TestTree(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{
		"src/b.ts": "", "src/a.ts": "", "src/lib/util.ts": "", "README.md": "", "a.txt": "",
		"node_modules/x/index.js": "", ".git/HEAD": "", "dist/out.js": "", "build/o": "", "coverage/c": "",
		".next/n": "", ".cache/c": "", "src/node_modules/deep.js": "", "docs/.keep": "",
	})
	os.MkdirAll(filepath.Join(root, "empty"), 0o755)
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(root, "zz-out"))) // leaves the project: hidden
	must(t, os.Symlink(filepath.Join(root, "README.md"), filepath.Join(root, "readme-link")))
	got, err := w.Tree()
	if err != nil {
		t.Fatal(err)
	}
	file := func(p, name string) *Node { return &Node{Name: name, Path: p, Type: NodeFile} }
	dir := func(p, name string, kids ...*Node) *Node {
		if kids == nil {
			kids = []*Node{}
		}
		return &Node{Name: name, Path: p, Type: NodeDirectory, Children: kids}
	}
	want := dir("", "proj",
		dir("docs", "docs", file("docs/.keep", ".keep")),
		dir("empty", "empty"),
		dir("src", "src", dir("src/lib", "lib", file("src/lib/util.ts", "util.ts")), file("src/a.ts", "a.ts"), file("src/b.ts", "b.ts")),
		file("README.md", "README.md"),
		file("a.txt", "a.txt"),
		file("readme-link", "readme-link"),
	)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tree (-want +got):\n%s", diff)
	}
}

func TestExcludedPath(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{"node_modules/a": true, "src/.git/x": true, "src/a.ts": false, "distx/a": false, "a/build": true} {
		if got := excludedPath(p); got != want {
			t.Errorf("excludedPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// makeTree creates n files spread over directories of 100 files, plus an
// excluded node_modules the scan must skip.
func makeTree(tb testing.TB, n int) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "big")
	for d := 0; d*100 < n; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d/30), fmt.Sprintf("mod%04d", d))
		must(tb, os.MkdirAll(dir, 0o755))
		for i := 0; i < 100 && d*100+i < n; i++ {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("file%03d.ts", i)))
			must(tb, err)
			f.Close()
		}
	}
	must(tb, os.MkdirAll(filepath.Join(root, "node_modules", "dep"), 0o755))
	return root
}

func countFiles(n *Node) int {
	if n.Type == NodeFile {
		return 1
	}
	c := 0
	for _, k := range n.Children {
		c += countFiles(k)
	}
	return c
}

// BenchmarkTree100k: the spec's target is a 100,000-file scan in ≤ 1 s.
func BenchmarkTree100k(b *testing.B) {
	if testing.Short() {
		b.Skip("creates 100,000 files")
	}
	root := makeTree(b, 100_000)
	w, err := New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tree, err := w.Tree()
		if err != nil {
			b.Fatal(err)
		}
		if n := countFiles(tree); n != 100_000 {
			b.Fatalf("%d files, want 100000", n)
		}
	}
}
