package testenv

import (
	"net"
	"testing"
)

// ClosedAddr returns a loopback TCP address (host:port) that nothing
// listens on: a port the system just gave out and this process freed, so
// a connection to it is refused.
func ClosedAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
