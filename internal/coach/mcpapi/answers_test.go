package mcpapi

import (
	"testing"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// paige_get_buffer's cached answer follows every change of the buffer:
// content, cursor, and a new buffer for the same path after a drop.
func TestGetBufferAnswerFollowsChanges(t *testing.T) {
	h := newHarness(t)
	get := func() BufferEntry {
		t.Helper()
		var b BufferEntry
		if msg := h.call(t, "paige_get_buffer", PathIn{Path: "src/auth.ts"}, &b); msg != "" {
			t.Fatal(msg)
		}
		return b
	}
	steps := []struct {
		content string
		cursor  workspace.Cursor
	}{
		{"one\n", workspace.Cursor{Line: 1}},
		{"one\n", workspace.Cursor{Line: 1}}, // unchanged: the cached answer
		{"two\n", workspace.Cursor{Line: 1}},
		{"two\n", workspace.Cursor{Line: 1, Column: 3}},
	}
	for i, s := range steps {
		if _, err := h.ws.UpdateBuffer("src/auth.ts", s.content, s.cursor); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got := get(); got.Content != s.content || got.CursorPosition != s.cursor || got.Path != "src/auth.ts" {
				t.Fatalf("step %d: got %+v, want content %q cursor %+v", i, got, s.content, s.cursor)
			}
		}
	}
	if err := h.ws.DropBuffer("src/auth.ts"); err != nil {
		t.Fatal(err)
	}
	var null map[string]any
	if msg := h.call(t, "paige_get_buffer", PathIn{Path: "src/auth.ts"}, &null); msg != "" || len(null) != 0 {
		t.Fatalf("dropped buffer: %q %v", msg, null)
	}
}
