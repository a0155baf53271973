// Command wsload is a load generator for Paige's editor WebSocket (/ws),
// for the issue-15 rows "WS buffer:update, server CPU per message" and
// "server RSS with 500 WS clients".
//
// In -mode rate (the default) one client optionally starts a coaching
// session (-session), then sends buffer:update frames of about -size bytes
// back to back for -duration, then a connection:hello barrier: its
// connection:init answer means the server has handled every earlier frame
// (one connection's messages are handled in order). It prints messages/s
// and, with -server-pid, the server's CPU per message (from /proc). The
// frames are masked before the clock starts and written batchFrames to a
// system call, so the client costs little CPU per message.
//
// In -mode idle, -conns clients connect and each completes a
// connection:hello / connection:init exchange; they stay open for -hold,
// then wsload prints the server's resident memory (with -server-pid) and
// closes them.
//
// Exit status: 0 clean, 1 on any error, 2 on bad flags. Only loopback URLs
// are accepted.
//
//	go run ./bench/wsload -url ws://127.0.0.1:3000/ws -duration 5s -server-pid $PID
//	go run ./bench/wsload -mode idle -conns 500 -server-pid $PID
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/paige-dev/paige/bench/internal/loadtool"
)

// config is one run's settings, from the flags.
type config struct {
	URL      string
	Mode     string
	Duration time.Duration
	Size     int
	Session  bool
	Conns    int
	Hold     time.Duration
	SrvPID   int
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// realMain runs wsload with args and returns its exit code.
func realMain(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	return loadtool.Main("wsload", stderr, err, func(ctx context.Context) error {
		if cfg.Mode == "idle" {
			return runIdle(ctx, cfg, stdout)
		}
		return runRate(ctx, cfg, stdout)
	})
}

// parseFlags reads and validates the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := loadtool.NewFlagSet("wsload", stderr)
	var c config
	fs.StringVar(&c.URL, "url", "ws://127.0.0.1:3000/ws", "editor WebSocket endpoint (loopback only)")
	fs.StringVar(&c.Mode, "mode", "rate", "rate (one client, buffer:update back to back) or idle (-conns clients held open)")
	fs.DurationVar(&c.Duration, "duration", 5*time.Second, "rate: how long to send (at most 10m)")
	fs.IntVar(&c.Size, "size", 2600, "rate: approximate frame size in bytes (200 to 1,000,000)")
	fs.BoolVar(&c.Session, "session", false, "rate: start a coaching session first, as while coaching")
	fs.IntVar(&c.Conns, "conns", 500, "idle: clients to hold open (1 to 10,000)")
	fs.DurationVar(&c.Hold, "hold", time.Second, "idle: how long to hold them before measuring (at most 10m)")
	fs.IntVar(&c.SrvPID, "server-pid", 0, "server's process id, for its CPU and memory (Linux /proc)")
	if err := loadtool.Parse(fs, args); err != nil {
		return c, err
	}
	return c, c.validate()
}

// validate checks a config's bounds and that its URL is loopback.
func (c config) validate() error {
	switch {
	case c.Mode != "rate" && c.Mode != "idle":
		return fmt.Errorf("-mode %q: want rate or idle", c.Mode)
	case c.Duration <= 0 || c.Duration > 10*time.Minute:
		return fmt.Errorf("-duration %v: want more than 0 and at most 10m", c.Duration)
	case c.Size < 200 || c.Size > 1_000_000:
		return fmt.Errorf("-size %d: want 200 to 1000000", c.Size)
	case c.Conns < 1 || c.Conns > 10_000:
		return fmt.Errorf("-conns %d: want 1 to 10000", c.Conns)
	case c.Hold < 0 || c.Hold > 10*time.Minute:
		return fmt.Errorf("-hold %v: want 0 to 10m", c.Hold)
	}
	return loadtool.CheckLoopback(c.URL, "ws", "a ws:// URL")
}
