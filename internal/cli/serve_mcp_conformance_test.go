package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/testenv"
)

// TestMCPConformanceTypeScript runs test/mcp-conformance/conformance.mjs,
// the official TypeScript MCP SDK client, against the real server: it lists
// the tools and calls every one (success, tool-error and null cases) and
// fails on any protocol error, such as a result without the structured
// content its output schema requires. PAIGE_TEST_MCP_TS is the script's
// directory with node_modules installed (scripts/ci/45-mcp-ts.sh).
func TestMCPConformanceTypeScript(t *testing.T) {
	dir := testenv.Service(t, "PAIGE_TEST_MCP_TS", "the TypeScript MCP conformance client")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("PAIGE_TEST_MCP_TS=%s has no @modelcontextprotocol/sdk: run npm ci there (%v)", dir, err)
	}
	node := testenv.Node(t)
	s := startServe(t, serveEnv(t))
	editor, cs := s.ws(t), s.mcpClient(t)
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": "src/auth.ts", "content": "export const x = 1;\n",
		"cursorPosition": map[string]any{"line": 1, "column": 1}})
	deadline := time.Now().Add(testWait)
	for { // buffer:update has no acknowledgement: wait until the buffer is readable
		var b map[string]any
		if msg := callTool(t, cs, "paige_get_buffer", map[string]any{"path": "src/auth.ts"}, &b); msg == "" && b["path"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("buffer never stored")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*testWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "conformance.mjs", s.base+"/mcp")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("conformance client failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
