package tsgen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/terminal"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

func committed(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", filepath.FromSlash(Path)))
	if err != nil {
		t.Fatalf("read the generated file: %v (run go generate ./internal/coach/wsapi)", err)
	}
	return string(b)
}

// TestWorkbenchTSIsCurrent fails when the committed TypeScript differs
// from what the Go catalog generates.
func TestWorkbenchTSIsCurrent(t *testing.T) {
	if got, want := committed(t), string(Generate()); got != want {
		t.Errorf("%s is stale: run `go generate ./internal/coach/wsapi` and commit it", Path)
	}
}

// TestWorkbenchTSHasEveryType checks the committed file itself: every
// client→server and server→client type of the Go catalog, and every /pty
// control message, has its TypeScript counterpart in the right map.
func TestWorkbenchTSHasEveryType(t *testing.T) {
	src := committed(t)
	section := func(name string) string {
		i := strings.Index(src, "export interface "+name+" {")
		if i < 0 {
			t.Fatalf("no %s in the generated file", name)
		}
		j := strings.Index(src[i:], "\n}\n")
		return src[i : i+j]
	}
	client, server := section("ClientPayloads"), section("ServerPayloads")
	for _, m := range wsapi.Catalog {
		in := client
		if m.Direction == wsapi.ServerToClient {
			in = server
		}
		if !strings.Contains(in, "  "+strconv.Quote(m.Type)+": ") {
			t.Errorf("%s (%s) has no TypeScript counterpart", m.Type, m.Direction)
		}
	}
	for _, c := range terminal.Controls {
		if !strings.Contains(src, "  type: "+strconv.Quote(c.Type)+";") {
			t.Errorf("/pty %s has no TypeScript counterpart", c.Type)
		}
	}
}

// TestGenerateShapes pins the mapping rules on known payloads.
func TestGenerateShapes(t *testing.T) {
	src := string(Generate())
	for _, want := range []string{
		"export interface SessionStart {\n  issueNumber?: number | null;\n  issueTitle?: string;\n}",
		"export interface ConnectionError {\n  code: string;\n  message: string;\n  context?: Record<string, unknown>;\n}",
		"  terminal?: TerminalStatus | null;\n",
		"export type Empty = Record<string, never>;",
		"export interface PtyResize {\n  type: \"resize\";\n  cols: number;\n  rows: number;\n}",
		"export type PtyClientMessage = PtyInput | PtyResize;",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated TypeScript lacks:\n%s", want)
		}
	}
}
