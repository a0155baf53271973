package limits

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// grouped formats n with thousands separators, as the docs write numbers.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// limitsSection returns the "## Limits" section of a doc.
func limitsSection(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Limits\n")
	if !ok {
		t.Fatalf("docs/%s has no Limits section", name)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

// TestDocsListEveryLimit keeps the Limits sections of docs/websocket.md
// and docs/mcp-tools.md in step with the constants.
func TestDocsListEveryLimit(t *testing.T) {
	ws, mcp := limitsSection(t, "websocket.md"), limitsSection(t, "mcp-tools.md")
	both := []string{
		"| Path length | " + grouped(PathBytes) + " bytes |",
		"| Path depth | " + grouped(PathDepth) + " components",
		"(" + grouped(DocumentBytes) + " bytes)",
		"(" + grouped(TextBytes) + " bytes)",
		"| Title | " + grouped(TitleBytes) + " bytes |",
		"| Name | " + grouped(NameBytes) + " bytes |",
		"| List | " + grouped(ListItems) + " items |",
	}
	for _, want := range append(both,
		"| Message | 16 MiB ("+grouped(MessageBytes)+" bytes) |",
		"("+grouped(ContentBytes)+" bytes)",
		"| Terminal | "+grouped(TerminalCells)+" cells |") {
		if !strings.Contains(ws, want) {
			t.Errorf("docs/websocket.md Limits lacks %q", want)
		}
	}
	for _, want := range append(both,
		"| Request body | 16 MiB ("+grouped(MessageBytes)+" bytes) |",
		"| Paths per call | "+grouped(PathsPerCall)+" |",
		"| Directories per hint | "+grouped(ListItems)+" |",
		"| Accumulated hints | "+grouped(Hints)+" |",
		"| Accumulated highlights | "+grouped(Highlights)+" |") {
		if !strings.Contains(mcp, want) {
			t.Errorf("docs/mcp-tools.md Limits lacks %q", want)
		}
	}
}
