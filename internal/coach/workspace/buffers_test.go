package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// Scenarios 3.3, 3.4, SC-012.
func TestBufferUpdateAndRead(t *testing.T) {
	t.Parallel()
	w, _ := newWorkspace(t, map[string]string{"src/a.ts": "héllo"})
	if _, ok, err := w.Buffer("src/a.ts"); ok || err != nil {
		t.Fatalf("Buffer before update = ok %v, %v; want none", ok, err)
	}
	ch, err := w.UpdateBuffer("src/a.ts", "héllo world", Cursor{Line: 1, Column: 12})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(BufferChange{Path: "src/a.ts", CharCount: 11, PrevCharCount: 5}, ch); diff != "" {
		t.Errorf("first change (-want +got):\n%s", diff)
	}
	b, ok, err := w.Buffer("src/a.ts")
	want := Buffer{Path: "src/a.ts", Content: "héllo world", CursorPosition: Cursor{1, 12}, Dirty: true, LastUpdated: t0, CharCount: 11}
	if !ok || err != nil {
		t.Fatalf("Buffer = ok %v, %v", ok, err)
	}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("buffer (-want +got):\n%s", diff)
	}
	ch, _ = w.UpdateBuffer("src/a.ts", "h", Cursor{})
	if ch.PrevCharCount != 11 || ch.CharCount != 1 {
		t.Errorf("second change = %+v, want prev 11 now 1", ch)
	}
	ch, _ = w.UpdateBuffer("brand/new.ts", "x", Cursor{})
	if ch.PrevCharCount != -1 {
		t.Errorf("new file prev = %d, want -1", ch.PrevCharCount)
	}
}

// The original implementation lost diffs because the cache was keyed by
// whatever spelling the caller used. Every spelling must hit one buffer.
func TestBufferOneKeyWhateverSpelling(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"src/a.ts": "one\n"})
	must(t, os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "alias")))
	spellings := []string{"src/a.ts", "./src/a.ts", "src/./a.ts", "src/x/../a.ts", filepath.Join(root, "src/a.ts"),
		"alias/a.ts", filepath.Join(root, "alias/../src/a.ts"), filepath.Join(w.Root(), "src/a.ts")}
	for i, write := range spellings {
		content := strings.Repeat("line\n", i+2)
		if _, err := w.UpdateBuffer(write, content, Cursor{}); err != nil {
			t.Fatalf("UpdateBuffer(%q): %v", write, err)
		}
		for _, read := range spellings {
			b, ok, err := w.Buffer(read)
			if err != nil || !ok || b.Content != content {
				t.Errorf("written as %q, Buffer(%q) = %q ok %v err %v", write, read, b.Content, ok, err)
			}
			d, err := w.Diff(read)
			if err != nil || !strings.Contains(d, "+line") {
				t.Errorf("written as %q, Diff(%q) = %q, %v; want the buffer's diff", write, read, d, err)
			}
		}
	}
	if n := len(w.Buffers()); n != 1 {
		t.Errorf("%d buffers, want 1", n)
	}
}

// EC-12: binary files never enter the buffer cache.
func TestBufferRejectsBinary(t *testing.T) {
	t.Parallel()
	w, _ := newWorkspace(t, map[string]string{"blob.bin2": "a\x00b", "ok.ts": "x"})
	for _, tt := range []struct{ path, content string }{{"logo.png", "PNG"}, {"blob.bin2", "text now"}, {"ok.ts", "a\x00"}} {
		if _, err := w.UpdateBuffer(tt.path, tt.content, Cursor{}); !errors.Is(err, ErrBinary) {
			t.Errorf("UpdateBuffer(%s) = %v, want ErrBinary", tt.path, err)
		}
	}
	if n := len(w.Buffers()); n != 0 {
		t.Errorf("%d buffers after binary updates, want 0", n)
	}
	if _, err := w.UpdateBuffer("../escape.ts", "x", Cursor{}); !errors.Is(err, ErrOutsideProject) {
		t.Errorf("UpdateBuffer(../escape.ts) = %v, want ErrOutsideProject", err)
	}
	os.Mkdir(filepath.Join(w.Root(), "dir"), 0o755)
	for _, p := range []string{".", "dir", "./dir/"} {
		if _, err := w.UpdateBuffer(p, "x", Cursor{}); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("UpdateBuffer(%q) = %v, want ErrInvalidPath", p, err)
		}
	}
}

// Scenario 3.5, SC-013, EC-13, EC-34.
func TestDiff(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t, map[string]string{"a.ts": "one\ntwo\nthree\n", "b.ts": "b\n", "c.ts": "c\n"})
	if d, err := w.Diff("a.ts"); d != "" || err != nil {
		t.Errorf("Diff without buffer = %q, %v; want empty", d, err)
	}
	if list, err := w.Diffs(); err != nil || list == nil || len(list) != 0 {
		t.Errorf("Diffs with no buffers = %#v, %v; want empty non-nil", list, err)
	}
	w.UpdateBuffer("a.ts", "one\n2\nthree\n", Cursor{})
	w.UpdateBuffer("c.ts", "c\n", Cursor{}) // dirty but identical
	want := "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
	if d, err := w.Diff("a.ts"); d != want || err != nil {
		t.Errorf("Diff = %q, %v; want %q", d, err, want)
	}
	w.UpdateBuffer("b.ts", "B\n", Cursor{})
	if _, err := w.WriteFile("b.ts", "B\n"); err != nil {
		t.Fatal(err)
	}
	if d, _ := w.Diff("b.ts"); d != "" {
		t.Errorf("Diff of saved buffer = %q, want empty", d)
	}
	list, err := w.Diffs()
	if err != nil || len(list) != 1 || list[0].Path != "a.ts" || list[0].Diff != want {
		t.Errorf("Diffs = %+v, %v; want only a.ts", list, err)
	}
	// EC-13: deleted on disk, the buffer is kept and diffs against nothing.
	os.Remove(filepath.Join(root, "a.ts"))
	d, err := w.Diff("a.ts")
	if err != nil || !strings.Contains(d, "+2") || !strings.Contains(d, "+one") {
		t.Errorf("Diff after delete = %q, %v; want all lines added", d, err)
	}
	if err := w.DropBuffer("./a.ts"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := w.Buffer("a.ts"); ok {
		t.Error("buffer still there after DropBuffer")
	}
}

// EC-15: concurrent updates of one file — last write wins, no race.
func TestBufferConcurrentUpdates(t *testing.T) {
	t.Parallel()
	w, _ := newWorkspace(t, map[string]string{"a.ts": ""})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				w.UpdateBuffer("./a.ts", strings.Repeat("x", i*1000+j), Cursor{Line: i})
				w.Buffer("a.ts")
			}
		}()
	}
	wg.Wait()
	b, ok, _ := w.Buffer("a.ts")
	if !ok || b.CharCount != len(b.Content) || b.CharCount%1000 != 199 {
		t.Errorf("final buffer charCount %d content %d; want a complete last write", b.CharCount, len(b.Content))
	}
}

// BenchmarkBufferUpdate measures buffer:update ingestion through the cache
// (the action log half is in actionlog's BenchmarkBufferUpdate).
func BenchmarkBufferUpdateCache(b *testing.B) {
	w, _ := newWorkspace(b, map[string]string{"src/a.ts": strings.Repeat("x", 2000)})
	content := strings.Repeat("const x = 1;\n", 150)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := w.UpdateBuffer("src/a.ts", content[:1000+i%900], Cursor{Line: i}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzBufferKey: a buffer written under any accepted spelling is found
// under its normalised path, and rejected spellings create no buffer.
func FuzzBufferKey(f *testing.F) {
	w, root := newWorkspace(f, map[string]string{"src/a.ts": "a"})
	os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "in"))
	for _, s := range []string{"src/a.ts", "./src/a.ts", "in/a.ts", root + "/src/a.ts", "../x", "a\x00", "", "logo.png", "src/../../x"} {
		f.Add(s, "content")
	}
	f.Fuzz(func(t *testing.T, p, content string) {
		before := len(w.Buffers())
		ch, err := w.UpdateBuffer(p, content, Cursor{})
		if err != nil {
			if n := len(w.Buffers()); n != before {
				t.Fatalf("rejected UpdateBuffer(%q) changed the cache: %d → %d buffers", p, before, n)
			}
			return
		}
		rp, err := w.Guard().Resolve(p)
		if err != nil || rp.Rel != ch.Path {
			t.Fatalf("UpdateBuffer(%q) keyed %q, Resolve = %+v, %v", p, ch.Path, rp, err)
		}
		b, ok, err := w.Buffer(ch.Path)
		if err != nil || !ok || b.Content != content {
			t.Fatalf("Buffer(%q) after UpdateBuffer(%q) = %q ok %v err %v", ch.Path, p, b.Content, ok, err)
		}
	})
}

func TestRuneCount(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefg", "abcdefgh", "abcdefghi", strings.Repeat("line of code\n", 200),
		"é", "abcdefgé", strings.Repeat("x", 17) + "日本語" + strings.Repeat("y", 9), "\xff\xfe" + strings.Repeat("z", 20),
		strings.Repeat("a", 15) + "\xed\xa0\x80"} {
		if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzRuneCount(f *testing.F) {
	f.Add("abcdefgh\xffé")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
		}
	})
}

func BenchmarkRuneCount(b *testing.B) {
	s := strings.Repeat("line of code\n", 200)
	b.Run("runeCount", func(b *testing.B) {
		for b.Loop() {
			runeCount(s)
		}
	})
	b.Run("utf8", func(b *testing.B) {
		for b.Loop() {
			utf8.RuneCountInString(s)
		}
	})
}
