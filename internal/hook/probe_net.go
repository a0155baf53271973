package hook

import (
	"context"
	"io"
	"net"
	"time"
)

// getHealthNet sends GET /health to 127.0.0.1:port through package net and
// returns the whole answer, read until the server closes the connection;
// ok is false when the connection, the request or the read fails, the
// answer is longer than maxHealthResponse, or timeout (or ctx) ends it
// first. It is getHealth where poll(2) on a raw socket is not used, and
// the oracle of getHealth's tests.
func getHealthNet(ctx context.Context, port int, timeout time.Duration) (resp []byte, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addr := healthAddr(port)
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, false
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, healthRequest(addr)); err != nil {
		return nil, false
	}
	resp, err = io.ReadAll(io.LimitReader(conn, maxHealthResponse+1))
	if err != nil || len(resp) > maxHealthResponse {
		return nil, false
	}
	return resp, true
}
