package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// dialTimeout bounds each connection's set-up (dial, hello, session).
const dialTimeout = 30 * time.Second

// conn is one editor connection.
type conn struct{ ws *wsConn }

// dial opens an editor connection.
func dial(ctx context.Context, u string) (*conn, error) {
	ws, err := dialWS(ctx, u)
	if err != nil {
		return nil, err
	}
	return &conn{ws: ws}, nil
}

// send writes one message of type typ with payload.
func (c *conn) send(ctx context.Context, typ string, payload any) error {
	b, err := json.Marshal(map[string]any{"type": typ, "timestamp": time.Now().UnixMilli(), "payload": payload})
	if err != nil {
		return err
	}
	return c.ws.write(ctx, opText, b)
}

// await reads messages until one of type typ; an "error" message for the
// connection fails it.
func (c *conn) await(ctx context.Context, typ string) error {
	for {
		b, err := c.ws.read(ctx)
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", typ, err)
		}
		var env struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			return fmt.Errorf("waiting for %s: bad frame: %w", typ, err)
		}
		switch env.Type {
		case typ:
			return nil
		case "error":
			return fmt.Errorf("waiting for %s: server error %s", typ, env.Payload)
		}
	}
}

// hello does the connection:hello / connection:init exchange. Because one
// connection's messages are handled in order, its answer also means every
// earlier message was handled.
func (c *conn) hello(ctx context.Context) error {
	if err := c.send(ctx, "connection:hello", map[string]any{"version": "wsload", "platform": "bench"}); err != nil {
		return err
	}
	return c.await(ctx, "connection:init")
}

// frames returns n buffer:update frames of about size bytes each, with
// distinct contents so no layer can skip an unchanged buffer.
func frames(n, size int) ([][]byte, error) {
	line := "const value = compute(input) + 1; // line of code\n"
	base := strings.Repeat(line, max(1, (size-160)/len(line)))
	out := make([][]byte, n)
	for i := range out {
		b, err := json.Marshal(map[string]any{"type": "buffer:update", "timestamp": 1700000000000 + i,
			"payload": map[string]any{"path": "src/main.ts", "content": base + fmt.Sprintf("// %d\n", i),
				"cursorPosition": map[string]int{"line": 10, "column": i % 40}}})
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// batchFrames is how many frames wsload writes with one system call.
const batchFrames = 16

// batch is frames ready to write with one system call.
type batch struct {
	wire []byte // the masked frames, each with its own key
	msgs int    // how many
}

// batches returns msgs as masked text frames joined batchFrames at a
// time: what the rate loop writes, built before it starts so that sending
// costs one write per batch and nothing per message.
func batches(msgs [][]byte) []batch {
	var out []batch
	for i := 0; i < len(msgs); i += batchFrames {
		var b batch
		for _, m := range msgs[i:min(i+batchFrames, len(msgs))] {
			b.wire = appendFrame(b.wire, opText, m, newMaskKey())
			b.msgs++
		}
		out = append(out, b)
	}
	return out
}

// runRate sends buffer:update frames back to back on one connection for
// cfg.Duration and prints the rate and the server's CPU per message.
func runRate(ctx context.Context, cfg config, w io.Writer) error {
	setup, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := dial(setup, cfg.URL)
	if err != nil {
		return err
	}
	defer c.ws.closeNow()
	if err := c.hello(setup); err != nil {
		return err
	}
	if cfg.Session {
		if err := c.send(setup, "session:start", map[string]any{}); err != nil {
			return err
		}
		if err := c.await(setup, "session:started"); err != nil {
			return err
		}
	}
	msgs, err := frames(64, cfg.Size)
	if err != nil {
		return err
	}
	bs := batches(msgs)
	n, elapsed, cpu, err := sendBatches(ctx, c, bs, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wsload: rate, 1 client, buffer:update of %d bytes, %v, %s\n", len(msgs[0]), cfg.Duration, cfg.URL)
	fmt.Fprintf(w, "messages   %d in %.2fs = %.0f msg/s\n", n, elapsed.Seconds(), float64(n)/elapsed.Seconds())
	if cfg.SrvPID > 0 && cpu >= 0 && n > 0 {
		fmt.Fprintf(w, "server cpu %.1f µs/msg\n", float64(cpu.Nanoseconds())/1e3/float64(n))
	}
	return c.ws.close()
}

// sendBatches writes the batches in turn for cfg.Duration, then the
// connection:hello barrier, and returns how many messages were sent, the
// time to the barrier's answer and the server's CPU time meanwhile (-1
// when unknown).
func sendBatches(ctx context.Context, c *conn, bs []batch, cfg config) (n int, elapsed, cpu time.Duration, err error) {
	cpu0, ok0 := proc.CPU(cfg.SrvPID)
	unbound := c.ws.bound(ctx)
	start := time.Now()
	for i, deadline := 0, start.Add(cfg.Duration); time.Now().Before(deadline); i = (i + 1) % len(bs) {
		if _, err := c.ws.nc.Write(bs[i].wire); err != nil {
			unbound()
			return n, 0, 0, fmt.Errorf("write after %d messages: %w", n, err)
		}
		n += bs[i].msgs
	}
	unbound()
	barrier, cancelB := context.WithTimeout(ctx, dialTimeout+cfg.Duration)
	defer cancelB()
	if err := c.hello(barrier); err != nil {
		return n, 0, 0, fmt.Errorf("barrier after %d messages: %w", n, err)
	}
	elapsed = time.Since(start)
	cpu1, ok1 := proc.CPU(cfg.SrvPID)
	if !ok0 || !ok1 {
		return n, elapsed, -1, nil
	}
	return n, elapsed, cpu1 - cpu0, nil
}

// runIdle holds cfg.Conns connections open, each past its hello exchange,
// for cfg.Hold and prints the server's resident memory.
func runIdle(ctx context.Context, cfg config, w io.Writer) error {
	setup, cancel := context.WithTimeout(ctx, dialTimeout+time.Duration(cfg.Conns)*20*time.Millisecond)
	defer cancel()
	conns := make([]*conn, cfg.Conns)
	errs := make([]error, cfg.Conns)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32) // bounded dialling, as a burst of reloads would
	for i := range conns {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := dial(setup, cfg.URL)
			if err == nil {
				conns[i] = c
				err = c.hello(setup)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.ws.closeNow()
			}
		}
	}()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("client %d: %w", i, err)
		}
	}
	select {
	case <-time.After(cfg.Hold):
	case <-ctx.Done():
		return ctx.Err()
	}
	fmt.Fprintf(w, "wsload: idle, %d clients connected, held %v, %s\n", cfg.Conns, cfg.Hold, cfg.URL)
	if rss, ok := proc.RSS(cfg.SrvPID); cfg.SrvPID > 0 && ok {
		fmt.Fprintf(w, "server rss %.1f MiB\n", float64(rss)/(1<<20))
	}
	return nil
}
