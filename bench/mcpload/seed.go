package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/coder/websocket"
)

// editorURL is the editor WebSocket (/ws) on the MCP URL's host.
func editorURL(mcpURL string) (string, error) {
	u, err := url.Parse(mcpURL)
	if err != nil {
		return "", err
	}
	u.Scheme, u.Path, u.RawQuery = "ws", "/ws", ""
	return u.String(), nil
}

// dialEditor opens the editor WebSocket (/ws on the MCP URL's host).
func dialEditor(ctx context.Context, mcpURL string) (*websocket.Conn, error) {
	u, err := editorURL(mcpURL)
	if err != nil {
		return nil, err
	}
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return nil, fmt.Errorf("editor WebSocket %s: %w", u, err)
	}
	return c, nil
}

// sendEditor writes one editor message of type typ with payload on c.
func sendEditor(ctx context.Context, c *websocket.Conn, typ string, payload any) error {
	msg, err := json.Marshal(map[string]any{"type": typ, "timestamp": time.Now().UnixMilli(), "payload": payload})
	if err != nil {
		return err
	}
	return c.Write(ctx, websocket.MessageText, msg)
}

// startSession starts a coaching session over the editor WebSocket
// (session:start, then waits at most 5 s for session:started), so that
// every tool call of the run logs its mcp_tool_call row as it does while
// the user is coached; without an active session the row is discarded
// (EC-17) and the run does not measure the action log. The returned
// connection stays open for the run; the caller closes it.
func startSession(ctx context.Context, mcpURL string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := dialEditor(ctx, mcpURL)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(64 << 20)
	err = sendEditor(ctx, c, "session:start", map[string]any{})
	for err == nil {
		var b []byte
		if _, b, err = c.Read(ctx); err != nil {
			break
		}
		var env struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(b, &env) == nil && env.Type == "session:started" {
			return c, nil
		}
	}
	c.CloseNow()
	return nil, fmt.Errorf("start a coaching session: %w", err)
}

// seedBuffer makes the server hold an unsaved editor buffer for path with
// content, so that paige_get_buffer answers a BufferEntry instead of
// null: it sends buffer:update over the editor WebSocket (/ws on the MCP
// URL's host) and calls the tool through s until [session.checkResult]
// accepts the answer (at most 5 s), which it does once the answer carries
// the buffer when s wants its content (Paige answers a missing buffer with
// the text null and structuredContent {}, not null). The returned connection stays open for the run;
// the caller closes it.
func seedBuffer(ctx context.Context, mcpURL, path, content string, s *session) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := dialEditor(ctx, mcpURL)
	if err != nil {
		return nil, err
	}
	err = sendEditor(ctx, c, "buffer:update",
		map[string]any{"path": path, "content": content, "cursorPosition": map[string]int{"line": 1, "column": 1}})
	for err == nil {
		var raw json.RawMessage
		if raw, err = s.callResult(ctx); err == nil && s.checkResult(raw) == nil {
			return c, nil
		}
		if err == nil {
			time.Sleep(10 * time.Millisecond)
			err = ctx.Err()
		}
	}
	c.CloseNow()
	return nil, fmt.Errorf("seed buffer %s: %w", path, err)
}

// errNoBuffer is a seeded run's answer that lost the buffer.
var errNoBuffer = errors.New("answer without the seeded buffer (null)")
