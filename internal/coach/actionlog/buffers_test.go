package actionlog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// BenchmarkBufferUpdate is the whole buffer:update ingestion path after
// decoding: buffer cache update, buffer log state, significant-change check
// (with the occasional database write it triggers), and the bus event an
// Observer subscriber drains. Target: ≥ 20,000 messages/s.
func BenchmarkBufferUpdate(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	root := b.TempDir()
	files := []string{"src/a.ts", "src/b.ts", "./src/c.ts", "lib/d.ts"}
	for _, p := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(strings.Repeat("x", 3000)), 0o644)
	}
	ws, err := workspace.New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	sub := f.l.Bus().Subscribe(1024)
	go func() {
		for range sub.C() {
		}
	}()
	defer sub.Unsubscribe()
	f.start(b)
	content := strings.Repeat("const value = compute(input);\n", 200) // 6,000 chars
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Typing: the length drifts by a few characters, with a jump (paste)
		// every 1,000 updates that logs a significant change.
		n := 3000 + i%40
		if i%1000 == 999 {
			n = 6000
		}
		ch, err := ws.UpdateBuffer(files[i%len(files)], content[:n], workspace.Cursor{Line: i % 200, Column: i % 30})
		if err != nil {
			b.Fatal(err)
		}
		if err := f.l.ObserveBuffer(ctx, ch.Path, ch.PrevCharCount, ch.CharCount); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// The first-update baseline end to end: the workspace reports the file's
// size on disk as the previous count, so a paste into a freshly opened file
// is significant at once, while the first keystroke in a new file is not.
func TestBaselineFromWorkspace(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "small.ts"), []byte("const a = 1;\n"), 0o644)
	ws, err := workspace.New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.start(t)
	for _, u := range []struct{ path, content string }{
		{"small.ts", "const a = 1;\n" + strings.Repeat("// pasted\n", 100)},
		{"new.ts", strings.Repeat("x", 2000)},
	} {
		ch, err := ws.UpdateBuffer(u.path, u.content, workspace.Cursor{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.l.ObserveBuffer(ctx, ch.Path, ch.PrevCharCount, ch.CharCount); err != nil {
			t.Fatal(err)
		}
	}
	got := f.actions(t, "buffer_significant_change")
	if len(got) != 1 {
		t.Fatalf("%d significant changes, want 1 (the paste)", len(got))
	}
	if d := dataOf(t, got[0]); d["path"] != "small.ts" || d["previousCharCount"] != 13.0 || d["newCharCount"] != 1013.0 {
		t.Errorf("significant change = %v, want small.ts 13 → 1013", d)
	}
}
