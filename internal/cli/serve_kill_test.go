//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// Nothing acknowledged is lost: a real `paige serve` is killed with
// SIGKILL in the middle of MCP tool calls and WebSocket file saves, and
// every call answered before the kill must have its action_log row in the
// database afterwards: an mcp_tool_call row per answered tool call, a
// file_save row per fs:save_ack. Several short runs, because where the
// kill lands differs each time.
func TestServeKillLosesNoAcknowledgedAction(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a real server several times; not in -short")
	}
	const runs = 5
	for run := 1; run <= runs; run++ {
		t.Run(fmt.Sprintf("run=%d", run), func(t *testing.T) {
			k := killRun(t)
			t.Logf("mcp_tool_call: %d acknowledged, %d found (%d lost); file_save: %d acknowledged, %d found (%d lost)",
				k.mcpAcked, k.mcpFound, k.mcpLost, k.saveAcked, k.saveFound, k.saveLost)
			if k.mcpLost > 0 || k.saveLost > 0 {
				t.Errorf("acknowledged actions lost by kill -9: %d mcp_tool_call, %d file_save", k.mcpLost, k.saveLost)
			}
		})
	}
}

// killCounts is what one run acknowledged and what the database kept.
type killCounts struct {
	mcpAcked, mcpFound, mcpLost    int
	saveAcked, saveFound, saveLost int
}

// Load of one run: mcpClients sequential tool callers, editors sequential
// savers of fresh files; the kill comes once both have this many answers.
const (
	killMCPClients = 4
	killEditors    = 2
	killAfterMCP   = 300
	killAfterSaves = 40
)

// killRun starts the binary, puts it under load, kills it and counts.
func killRun(t *testing.T) killCounts {
	env := serveEnv(t)
	env["LOG_LEVEL"] = "warn"
	cmd, addr, logs := startServeProcess(t, t.TempDir(), env)
	s := &served{base: "http://" + addr}
	editor := s.ws(t)
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 1})
	var started wsapi.SessionStarted
	editor.expect(wsapi.TypeSessionStarted, &started)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mcpTotal, saveTotal atomic.Int64
	mcpAcked := make([]int, killMCPClients) // per MCP session, in order
	sessions := make([]string, killMCPClients)
	saved := make([][]string, killEditors) // acknowledged paths
	var wg sync.WaitGroup
	for i := range killMCPClients {
		cs := s.mcpClient(t)
		sessions[i] = cs.ID()
		wg.Go(func() { mcpAcked[i] = callUntilError(ctx, cs, &mcpTotal) })
	}
	for i := range killEditors {
		w := s.ws(t)
		wg.Go(func() { saved[i] = saveUntilError(ctx, w.c, i, &saveTotal) })
	}
	deadline := time.Now().Add(testWait)
	for mcpTotal.Load() < killAfterMCP || saveTotal.Load() < killAfterSaves {
		if time.Now().After(deadline) {
			cancel()
			wg.Wait()
			t.Fatalf("load never reached %d calls and %d saves (%d, %d):\n%s",
				killAfterMCP, killAfterSaves, mcpTotal.Load(), saveTotal.Load(), logs.String())
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	wg.Wait() // every client ends on its first failed call
	return countKept(t, env["DATA_DIR"], started.SessionID, sessions, mcpAcked, saved)
}

// callUntilError calls paige_get_buffer (which logs mcp_tool_call) one
// call at a time until a call fails, and returns the number answered.
func callUntilError(ctx context.Context, cs *mcp.ClientSession, total *atomic.Int64) int {
	args := &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: mcpapi.PathIn{Path: "src/auth.ts"}}
	for n := 0; ; n++ {
		cctx, cancel := context.WithTimeout(ctx, testWait)
		res, err := cs.CallTool(cctx, args)
		cancel()
		if err != nil || res.IsError {
			return n
		}
		total.Add(1)
	}
}

// saveUntilError saves fresh files over the editor WebSocket one at a time
// until the connection fails, and returns the paths acknowledged with
// fs:save_ack. Acks are broadcast to every editor: only this editor's
// current path counts.
func saveUntilError(ctx context.Context, c *websocket.Conn, editor int, total *atomic.Int64) []string {
	var acked []string
	for i := 0; ; i++ {
		path := fmt.Sprintf("src/kill_%d_%d.ts", editor, i)
		msg, _ := json.Marshal(map[string]any{"type": wsapi.TypeFileSave, "timestamp": time.Now().UnixMilli(),
			"payload": map[string]any{"path": path, "content": fmt.Sprintf("export const n = %d;\n", i)}})
		if c.Write(ctx, websocket.MessageText, msg) != nil {
			return acked
		}
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return acked
			}
			var env struct {
				Type    string          `json:"type"`
				Payload wsapi.FSSaveAck `json:"payload"`
			}
			if json.Unmarshal(b, &env) != nil || env.Payload.Path != path {
				continue
			}
			if env.Type == wsapi.TypeFSSaveError {
				return acked
			}
			if env.Type == wsapi.TypeFSSaveAck {
				acked = append(acked, path)
				total.Add(1)
				break
			}
		}
	}
}

// countKept opens the killed server's database and compares what it kept
// with what was acknowledged: per MCP session, at least as many
// mcp_tool_call rows as answered calls (the calls of one session are
// sequential, so the answered ones are its first rows); a file_save row for
// every acknowledged path.
func countKept(t *testing.T, dataDir, sessionID string, sessions []string, mcpAcked []int, saved [][]string) killCounts {
	t.Helper()
	db, err := store.Open(context.Background(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.RecentActions(context.Background(), store.ActionQuery{SessionID: sessionID,
		Types: []coach.ActionType{coach.ActionMCPToolCall, coach.ActionFileSave}})
	if err != nil {
		t.Fatal(err)
	}
	perSession, paths := map[string]int{}, map[string]bool{}
	for _, r := range rows {
		var d struct {
			MCPSessionID string `json:"mcpSessionId"`
			Path         string `json:"path"`
		}
		if err := json.Unmarshal(r.Data, &d); err != nil {
			t.Fatalf("row %s: %v", r.ID, err)
		}
		if r.Type == coach.ActionMCPToolCall {
			perSession[d.MCPSessionID]++
		} else {
			paths[d.Path] = true
		}
	}
	var k killCounts
	for i, id := range sessions {
		k.mcpAcked += mcpAcked[i]
		k.mcpFound += min(perSession[id], mcpAcked[i])
	}
	for _, list := range saved {
		for _, p := range list {
			k.saveAcked++
			if paths[p] {
				k.saveFound++
			}
		}
	}
	k.mcpLost, k.saveLost = k.mcpAcked-k.mcpFound, k.saveAcked-k.saveFound
	return k
}
