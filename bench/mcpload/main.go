// Command mcpload is a lean load generator for Paige's MCP server: it
// measures the paige_get_buffer round trip (story 6's target: 16
// concurrent clients, p50 ≤ 1 ms, p99 ≤ 5 ms, ≥ 5,000 calls/s) without the
// official MCP SDK client, whose own ~200 µs of CPU per call would take
// half of a small machine from the server it measures.
//
// It speaks MCP Streamable HTTP: each of -workers sessions POSTs
// initialize (keeping its Mcp-Session-Id) and notifications/initialized
// with net/http, then makes its tools/call requests over its own
// kept-alive HTTP/1.1 connection without net/http (a pre-encoded request,
// only the id and Content-Length written per call; of the answer only the
// status line and the headers that frame it are parsed), and reads
// answers sent as application/json or as text/event-stream. Every answer
// is checked: one equal to the session's last fully checked answer but
// for the id (the call's own) is right; any other is decoded and checked
// in full. The net/http client cost more CPU per call than the server.
//
// In the open loop (-mode open, the default) the workers together issue
// -rate calls/s on a fixed schedule whatever the answers do, and a call
// sent late because its worker was still waiting is measured from when it
// was due, so backlog counts (no coordinated omission). In the closed loop
// (-mode closed) each worker calls again as soon as it has its answer,
// which measures capacity. It prints calls/s achieved, p50, p90, p99 and
// max latency and the error count, and exits 1 on any error (HTTP,
// JSON-RPC, a wrong id, a tool result with isError or, with -buffer, an
// answer without the seeded text), 2 on bad flags.
//
// Only loopback URLs are accepted: this is a benchmark for a local server.
//
//	go run ./bench/mcpload -url http://127.0.0.1:3000/mcp -rate 5000 -duration 10s
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/paige-dev/paige/bench/internal/loadtool"
)

// maxDuration bounds -duration.
const maxDuration = 10 * time.Minute

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// realMain runs mcpload with args and returns its exit code.
func realMain(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	return loadtool.Main("mcpload", stderr, err, func(ctx context.Context) error {
		res, err := run(ctx, cfg)
		if res != nil {
			report(stdout, cfg, res)
		}
		switch {
		case err != nil:
			return err
		case res.Errors > 0:
			return fmt.Errorf("%d calls failed, first: %v", res.Errors, res.FirstErr)
		case res.Calls == 0:
			return errors.New("no call answered")
		}
		return nil
	})
}

// parseFlags reads and validates the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := loadtool.NewFlagSet("mcpload", stderr)
	var cfg config
	fs.StringVar(&cfg.URL, "url", "http://127.0.0.1:3000/mcp", "MCP endpoint (loopback only)")
	fs.StringVar(&cfg.Mode, "mode", "open", "open (fixed -rate) or closed (back to back)")
	fs.IntVar(&cfg.Rate, "rate", 5000, "open loop: calls/s from all workers together")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "how long to send calls (at most 10m)")
	fs.IntVar(&cfg.Workers, "workers", 16, "concurrent clients, each with its own MCP session")
	fs.StringVar(&cfg.Tool, "tool", "paige_get_buffer", "tool to call")
	fs.StringVar(&cfg.Path, "path", "src/auth.ts", "the tool's path argument")
	fs.StringVar(&cfg.Buffer, "buffer", "", "if set, first send this text as -path's unsaved editor buffer over /ws, so calls return it instead of null")
	fs.BoolVar(&cfg.Session, "session", false, "first start a coaching session over /ws, so every call logs its mcp_tool_call row (committed before the answer) as while coaching")
	fs.IntVar(&cfg.SrvPID, "server-pid", 0, "server's process id, to report its CPU per call (Linux /proc)")
	if err := loadtool.Parse(fs, args); err != nil {
		return cfg, err
	}
	return cfg, cfg.validate()
}

// validate checks a config's bounds and that its URL is loopback.
func (c config) validate() error {
	switch {
	case c.Mode != "open" && c.Mode != "closed":
		return fmt.Errorf("-mode %q: want open or closed", c.Mode)
	case c.Rate < 1 || c.Rate > 1_000_000:
		return fmt.Errorf("-rate %d: want 1 to 1000000", c.Rate)
	case c.Duration <= 0 || c.Duration > maxDuration:
		return fmt.Errorf("-duration %v: want more than 0 and at most %v", c.Duration, maxDuration)
	case c.Workers < 1 || c.Workers > 1024:
		return fmt.Errorf("-workers %d: want 1 to 1024", c.Workers)
	case c.Tool == "":
		return errors.New("-tool is empty")
	}
	return loadtool.CheckLoopback(c.URL, "http", "an http:// URL")
}

// report prints a run's numbers.
func report(w io.Writer, cfg config, r *result) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3fms", float64(d.Microseconds())/1000) }
	offered := "back to back"
	if cfg.Mode == "open" {
		offered = fmt.Sprintf("%d calls/s offered", cfg.Rate)
	}
	answer := "no buffer seeded"
	if cfg.Buffer != "" {
		answer = fmt.Sprintf("buffer of %d bytes seeded", len(cfg.Buffer))
	}
	if cfg.Session {
		answer += ", coaching session started"
	}
	fmt.Fprintf(w, "mcpload: %s loop, %d workers, %s, %v, %s %s path=%s (%s)\n",
		cfg.Mode, cfg.Workers, offered, cfg.Duration, cfg.URL, cfg.Tool, cfg.Path, answer)
	fmt.Fprintf(w, "calls      %d in %.2fs = %.0f calls/s achieved\n",
		r.Calls, r.Elapsed.Seconds(), float64(r.Calls)/r.Elapsed.Seconds())
	fmt.Fprintf(w, "latency    p50 %s  p90 %s  p99 %s  max %s\n", ms(percentile(r.Lat, 0.50)),
		ms(percentile(r.Lat, 0.90)), ms(percentile(r.Lat, 0.99)), ms(percentile(r.Lat, 1)))
	fmt.Fprintf(w, "errors     %d\n", r.Errors)
	if cfg.Mode == "open" {
		fmt.Fprintf(w, "late       %d (sent more than a round late)  missed %d (never sent)\n", r.Late, r.Missed)
	}
	if r.CPU > 0 && r.Calls > 0 {
		fmt.Fprintf(w, "client cpu %.1f µs/call\n", float64(r.CPU.Microseconds())/float64(r.Calls))
	}
	if r.SrvCPU > 0 && r.Calls > 0 {
		fmt.Fprintf(w, "server cpu %.1f µs/call\n", float64(r.SrvCPU.Microseconds())/float64(r.Calls))
	}
}
