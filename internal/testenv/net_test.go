package testenv

import (
	"net"
	"testing"
	"time"
)

func TestClosedAddr(t *testing.T) {
	addr := ClosedAddr(t)
	if c, err := net.DialTimeout("tcp", addr, 10*time.Second); err == nil {
		c.Close()
		t.Errorf("dial %s: connected, want refused", addr)
	}
}
