package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// getStatus reads GET /api/v1/status.
func (s *served) getStatus(tb testing.TB) Status {
	tb.Helper()
	res, err := http.Get(s.base + "/api/v1/status")
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		tb.Fatalf("GET /api/v1/status: %s", res.Status)
	}
	var st Status
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// TestServeStatus: the status names the version, the models and that no key
// is set, the project, the data directory, the MCP URL and the line that
// connects Claude Code; Claude Code counts as connected while its MCP
// session is open, and "ever connected" survives a restart (the first-run
// panel is not shown again). The startup output names the same lines.
func TestServeStatus(t *testing.T) {
	t.Parallel()
	env := serveEnv(t)
	s := startServe(t, env)
	st := s.getStatus(t)
	if st.Version != Version || st.Models.KeySet || !st.Models.Offline || st.Models.Sonnet == "" {
		t.Errorf("version/models: %+v %+v", st.Version, st.Models)
	}
	if st.ProjectDir != env["PROJECT_DIR"] || st.DataDir != env["DATA_DIR"] || st.MCPURL != s.base+"/mcp" {
		t.Errorf("project %q data %q mcp %q", st.ProjectDir, st.DataDir, st.MCPURL)
	}
	if want := "claude mcp add --transport http paige " + s.base + "/mcp"; st.Connect.MCPAdd != want {
		t.Errorf("mcp add line: got %q, want %q", st.Connect.MCPAdd, want)
	}
	if st.ClaudeCode.Connected || st.ClaudeCode.EverConnected || st.Session != nil {
		t.Errorf("before Claude Code: %+v, session %+v", st.ClaudeCode, st.Session)
	}
	if !strings.Contains(st.Memory, "embedded") || st.Learning == "" || len(st.Docs) == 0 {
		t.Errorf("memory %q learning %q docs %v", st.Memory, st.Learning, st.Docs)
	}
	for _, line := range []string{"paige claude install", st.Connect.MCPAdd, "/paige:coach", s.base + "/status"} {
		if !strings.Contains(s.out.String(), line) {
			t.Errorf("startup output does not name %q:\n%s", line, s.out.String())
		}
	}

	cs := s.mcpClient(t)
	if st := s.getStatus(t); !st.ClaudeCode.Connected || !st.ClaudeCode.EverConnected || st.ClaudeCode.Sessions != 1 {
		t.Errorf("with an MCP session: %+v", st.ClaudeCode)
	}
	if _, err := os.Stat(filepath.Join(env["DATA_DIR"], "claude-code-connected")); err != nil {
		t.Errorf("first connection not persisted: %v", err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "paige_start_session",
		Arguments: map[string]any{"issueTitle": "Quantities"}}); err != nil {
		t.Fatal(err)
	}
	if st := s.getStatus(t); st.Session == nil || st.Session.IssueTitle != "Quantities" || !strings.Contains(st.Session.HowToEnd, "/paige:finish") {
		t.Errorf("active session: %+v", st.Session)
	}
	cs.Close()
	if err := s.shutdown(t); err != nil {
		t.Fatal(err)
	}
	s = startServe(t, env)
	if st := s.getStatus(t); st.ClaudeCode.Connected || !st.ClaudeCode.EverConnected {
		t.Errorf("after a restart: %+v", st.ClaudeCode)
	}
}
