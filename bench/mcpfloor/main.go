// Command mcpfloor is the floor under Paige's MCP figures: a server that
// answers what bench/mcpload sends — initialize with an Mcp-Session-Id,
// 202 to notifications, and to every tools/call a paige_get_buffer-shaped
// answer of the same size (a -buffer-bytes buffer, twice: as text and as
// structured content) with the request's id — and does no MCP work at
// all: no session, no tool, no encoding per call.
//
// With -server paige (the default) it is served by internal/server.Serve,
// as `paige serve` is: the origin/host policy, the body read deadline,
// the header and idle timeouts, and answers sent in one write
// (internal/server/coalesce). With -server plain it is a bare
// http.Server: net/http and nothing else. What Paige costs above the
// first is its MCP work; what the first costs above the second, its
// server settings.
//
//	go run ./bench/mcpfloor &   # prints its MCP URL
//	go run ./bench/mcpload -url http://127.0.0.1:PORT/mcp -mode closed -server-pid $!
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/paige-dev/paige/bench/internal/loadtool"
	"github.com/paige-dev/paige/internal/server"
	"github.com/paige-dev/paige/internal/server/coalesce"
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// realMain runs mcpfloor until interrupted and returns its exit code.
func realMain(args []string, stdout, stderr io.Writer) int {
	fs := loadtool.NewFlagSet("mcpfloor", stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (loopback)")
	mode := fs.String("server", "paige", "paige (internal/server.Serve, as paige serve) or plain (a bare http.Server)")
	size := fs.Int("buffer-bytes", 2500, "size of the buffer the answer carries twice")
	err := loadtool.Parse(fs, args)
	if err == nil && *mode != "paige" && *mode != "plain" {
		err = fmt.Errorf("-server %q: want paige or plain", *mode)
	}
	if err == nil && (*size < 0 || *size > 1<<20) {
		err = fmt.Errorf("-buffer-bytes %d: want 0 to 1048576", *size)
	}
	if err == nil {
		err = loadtool.CheckLoopback("http://"+*addr, "http", "a loopback address")
	}
	return loadtool.Main("mcpfloor", stderr, err, func(ctx context.Context) error {
		h := newHandler(*size)
		ready := func(a net.Addr) { fmt.Fprintf(stdout, "mcpfloor: http://%s/mcp\n", a) }
		if *mode == "plain" {
			return servePlain(ctx, *addr, h, ready)
		}
		return server.Serve(ctx, *addr, h, &server.Options{Ready: ready})
	})
}

// servePlain serves h with a bare http.Server until ctx ends.
func servePlain(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h}
	ready(ln.Addr())
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler answers mcpload's requests; see the package comment.
type handler struct {
	before, after []byte // the tools/call answer around its id
}

// newHandler returns the handler whose tools/call answer carries a
// buffer of size bytes.
func newHandler(size int) *handler {
	line := "const value = compute(input) + 1; // line of code\n"
	content := strings.Repeat(line, size/len(line)+1)[:size]
	entry, _ := json.Marshal(map[string]any{"path": "src/auth.ts", "content": content,
		"cursorPosition": map[string]int{"line": 1, "column": 1}, "dirty": true, "lastUpdated": "2026-01-01T00:00:00.000Z"})
	text, _ := json.Marshal(string(entry))
	return &handler{before: []byte(`{"jsonrpc":"2.0","id":`),
		after: fmt.Appendf(nil, `,"result":{"content":[{"type":"text","text":%s}],"structuredContent":%s}}`, text, entry)}
}

// ServeHTTP answers one request.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "POST a JSON-RPC message", http.StatusBadRequest)
		return
	}
	id := requestID(body)
	switch {
	case id == nil:
		w.WriteHeader(http.StatusAccepted) // a notification
	case bytes.Contains(body, []byte(`"method":"initialize"`)):
		w.Header().Set("Mcp-Session-Id", "floor")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},`+
			`"serverInfo":{"name":"mcpfloor","version":"1"}}}`, id)
	default:
		out := make([]byte, 0, len(h.before)+len(id)+len(h.after))
		out = append(append(append(out, h.before...), id...), h.after...)
		hd := w.Header()
		hd["Cache-Control"] = []string{"no-cache, no-transform"}
		hd["Content-Type"] = []string{"application/json"}
		hd["Content-Length"] = []string{strconv.Itoa(len(out))}
		coalesce.Response(r.Context(), len(out)) // as Paige's direct path does; nothing under -server plain
		_, _ = w.Write(out)
	}
}

// requestID is the digits of a request's numeric "id", nil for none.
func requestID(body []byte) []byte {
	_, rest, ok := bytes.Cut(body, []byte(`"id":`))
	if !ok {
		return nil
	}
	n := 0
	for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return nil
	}
	return rest[:n]
}
