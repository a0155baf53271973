package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// bufferPath is the file whose unsaved buffer the load scenarios use.
const bufferPath = "src/main.ts"

// setupTimeout bounds each connection's set-up and the final barrier.
const setupTimeout = 30 * time.Second

// loadResult is what one load run measured: operations, their wall time
// and the server's CPU over them.
type loadResult struct {
	ops     int
	elapsed time.Duration
	cpu     time.Duration
}

// cpuPerOp is the server's CPU per operation in µs.
func (l loadResult) cpuPerOp() float64 {
	if l.ops == 0 {
		return 0
	}
	return float64(l.cpu.Nanoseconds()) / 1e3 / float64(l.ops)
}

// rate is operations per second.
func (l loadResult) rate() float64 {
	if l.elapsed <= 0 {
		return 0
	}
	return float64(l.ops) / l.elapsed.Seconds()
}

// serverCPU measures the CPU the process pid spends while fn runs.
func serverCPU(pid int, fn func() (int, error)) (loadResult, error) {
	cpu0, ok0 := proc.CPU(pid)
	start := time.Now()
	n, err := fn()
	elapsed := time.Since(start)
	cpu1, ok1 := proc.CPU(pid)
	if err != nil {
		return loadResult{}, err
	}
	if !ok0 || !ok1 {
		return loadResult{}, fmt.Errorf("no CPU time of process %d", pid)
	}
	return loadResult{ops: n, elapsed: elapsed, cpu: cpu1 - cpu0}, nil
}

// connectMCP opens one MCP session with the official Go SDK client, as
// Claude Code does over Streamable HTTP.
func connectMCP(ctx context.Context, base string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "paige-bench", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp connect: %w", err)
	}
	return cs, nil
}

// getBuffer calls paige_get_buffer for bufferPath and checks that the
// answer carries the buffer of want bytes.
func getBuffer(ctx context.Context, cs *mcp.ClientSession, want int) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: map[string]any{"path": bufferPath}})
	if err != nil {
		return err
	}
	var got struct {
		Content string `json:"content"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError || json.Unmarshal(b, &got) != nil || len(got.Content) != want {
		return fmt.Errorf("paige_get_buffer answered %.200s, want the %d-byte buffer", b, want)
	}
	return nil
}

// mcpLoad opens workers MCP sessions and has each call paige_get_buffer
// back to back for dur; the buffer (of want bytes) must already be held.
// Sessions are opened before the measured span; open is called after it,
// before they are closed.
func mcpLoad(ctx context.Context, base string, pid, workers, want int, dur time.Duration, open func()) (loadResult, error) {
	sessions := make([]*mcp.ClientSession, workers)
	defer func() {
		for _, cs := range sessions {
			if cs != nil {
				cs.Close()
			}
		}
	}()
	for i := range sessions {
		cs, err := connectMCP(ctx, base)
		if err != nil {
			return loadResult{}, err
		}
		sessions[i] = cs
		if err := getBuffer(ctx, cs, want); err != nil { // warm, and checked
			return loadResult{}, err
		}
	}
	res, err := serverCPU(pid, func() (int, error) {
		var total int
		var mu sync.Mutex
		var firstErr error
		var wg sync.WaitGroup
		deadline := time.Now().Add(dur)
		for _, cs := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := 0
				var err error
				for time.Now().Before(deadline) && err == nil {
					if err = getBuffer(ctx, cs, want); err == nil {
						n++
					}
				}
				mu.Lock()
				defer mu.Unlock()
				total += n
				if firstErr == nil {
					firstErr = err
				}
			}()
		}
		wg.Wait()
		return total, firstErr
	})
	if err == nil {
		open()
	}
	return res, err
}

// wsClient is an editor WebSocket (/ws) whose frames a goroutine reads, so
// that the server never waits on this client; types carries each frame's
// type.
type wsClient struct {
	c     *websocket.Conn
	types chan string
}

// dialEditor connects to ws (the server's /ws URL).
func dialEditor(ctx context.Context, ws string) (*wsClient, error) {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ws, nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", ws, err)
	}
	c.SetReadLimit(64 << 20)
	w := &wsClient{c: c, types: make(chan string, 4096)}
	go func() {
		defer close(w.types)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var env struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(b, &env)
			w.types <- env.Type
		}
	}()
	return w, nil
}

// message encodes one editor message as the workbench sends it, "type"
// first.
func message(typ string, payload any) ([]byte, error) {
	return json.Marshal(struct {
		Type      string `json:"type"`
		Payload   any    `json:"payload"`
		Timestamp int64  `json:"timestamp"`
	}{typ, payload, time.Now().UnixMilli()})
}

// send writes one editor message.
func (w *wsClient) send(ctx context.Context, typ string, payload any) error {
	b, err := message(typ, payload)
	if err != nil {
		return err
	}
	return w.c.Write(ctx, websocket.MessageText, b)
}

// await waits for a frame of type typ (every frame before it is handled
// by the server before it answers, in order).
func (w *wsClient) await(ctx context.Context, typ string) error {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	for {
		select {
		case t, ok := <-w.types:
			if !ok {
				return fmt.Errorf("connection closed waiting for %s", typ)
			}
			if t == typ {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", typ, ctx.Err())
		}
	}
}

// hello is the barrier: connection:hello answered by connection:init.
func (w *wsClient) hello(ctx context.Context) error {
	if err := w.send(ctx, "connection:hello", map[string]any{"version": "bench", "platform": "bench"}); err != nil {
		return err
	}
	return w.await(ctx, "connection:init")
}

func (w *wsClient) close() { w.c.CloseNow() }

// bufferUpdate is a buffer:update payload of content at bufferPath.
func bufferUpdate(content string, column int) map[string]any {
	return map[string]any{"path": bufferPath, "content": content, "cursorPosition": map[string]int{"line": 10, "column": column}}
}

// startEditor connects an editor, starts a coaching session (so that the
// server does what it does while a user is coached) and sends content as
// the buffer; it returns once the server has handled both.
func startEditor(ctx context.Context, ws, content string) (*wsClient, error) {
	w, err := dialEditor(ctx, ws)
	if err != nil {
		return nil, err
	}
	err = w.hello(ctx)
	if err == nil {
		err = w.send(ctx, "session:start", map[string]any{})
	}
	if err == nil {
		err = w.await(ctx, "session:started")
	}
	if err == nil {
		err = w.send(ctx, "buffer:update", bufferUpdate(content, 1))
	}
	if err == nil {
		err = w.hello(ctx)
	}
	if err != nil {
		w.close()
		return nil, fmt.Errorf("editor set-up: %w", err)
	}
	return w, nil
}

// wsLoad sends buffer:update messages of content (each with another
// cursor) on w back to back for dur, then waits until the server has
// handled them all (the hello barrier).
func wsLoad(ctx context.Context, w *wsClient, pid int, content string, dur time.Duration) (loadResult, error) {
	var frames [][]byte
	for i := range 40 {
		b, err := message("buffer:update", bufferUpdate(content, i))
		if err != nil {
			return loadResult{}, err
		}
		frames = append(frames, b)
	}
	return serverCPU(pid, func() (int, error) {
		n := 0
		for deadline := time.Now().Add(dur); time.Now().Before(deadline); n++ {
			if err := w.c.Write(ctx, websocket.MessageText, frames[n%len(frames)]); err != nil {
				return n, err
			}
		}
		return n, w.hello(ctx)
	})
}

// idleClients holds n editor connections open (each past its
// connection:hello) for hold and calls during before closing them.
func idleClients(ctx context.Context, ws string, n int, hold time.Duration, during func()) error {
	clients := make([]*wsClient, 0, n)
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for i := range n {
		c, err := dialEditor(ctx, ws)
		if err == nil {
			clients = append(clients, c)
			err = c.hello(ctx)
		}
		if err != nil {
			return fmt.Errorf("idle client %d of %d: %w", i+1, n, err)
		}
	}
	time.Sleep(hold)
	during()
	return nil
}

// wsURL is the editor WebSocket URL of the server at base.
func wsURL(base string) string { return "ws" + strings.TrimPrefix(base, "http") + "/ws" }
