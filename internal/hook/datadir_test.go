package hook

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDataDirID(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if DataDirID(dir) != DataDirID(link) || DataDirID(dir) != DataDirID(dir+"/./") {
		t.Error("the same directory gives different ids")
	}
	if DataDirID(dir) == DataDirID(t.TempDir()) || strings.Contains(DataDirID(dir), "tmp") || len(DataDirID(dir)) != 16 {
		t.Errorf("id %q", DataDirID(dir))
	}
}

// portOf serves h and returns its port.
func portOf(tb testing.TB, h http.HandlerFunc) int {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

func TestServerDataDirAndMismatch(t *testing.T) {
	ctx, dir := context.Background(), t.TempDir()
	paige := portOf(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"status":"ok","uptime":1,"dataDirId":%q}`, DataDirID(dir))
	})
	if id, running := ServerDataDir(ctx, paige, 5*time.Second); !running || id != DataDirID(dir) {
		t.Errorf("ServerDataDir = %q, %v", id, running)
	}
	if w := DataDirMismatch(ctx, paige, dir, 5*time.Second); w != "" {
		t.Errorf("same dir: %q", w)
	}
	if w := DataDirMismatch(ctx, paige, t.TempDir(), 5*time.Second); !strings.Contains(w, "another DATA_DIR") {
		t.Errorf("other dir: %q", w)
	}
	notPaige := portOf(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	old := portOf(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"status":"ok","uptime":1}`) })
	for name, port := range map[string]int{"not paige": notPaige, "no id": old} {
		if w := DataDirMismatch(ctx, port, dir, 5*time.Second); w != "" {
			t.Errorf("%s: %q", name, w)
		}
	}
}

func TestHealthDataDir(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"
	tests := []struct {
		name, resp, id string
		running        bool
	}{
		{"paige", ok + `{"status":"ok","dataDirId":"abc"}` + "\n", "abc", true},
		{"old paige", ok + `{"status":"ok"}`, "", true},
		{"http 1.0", "HTTP/1.0 200 OK\r\n\r\n" + `{"status":"ok","dataDirId":"x"}`, "x", true},
		{"not ok", ok + `{"status":"starting"}`, "", false},
		{"404", "HTTP/1.1 404 Not Found\r\n\r\n" + `{"status":"ok"}`, "", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1f\r\n{\"status\":\"ok\"}\r\n0\r\n\r\n", "", false},
		{"no body", "HTTP/1.1 200 OK\r\n", "", false},
		{"not http", "SSH-2.0-OpenSSH\r\n\r\n{}", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		id, running := healthDataDir([]byte(tt.resp))
		if id != tt.id || running != tt.running {
			t.Errorf("%s: got %q, %v; want %q, %v", tt.name, id, running, tt.id, tt.running)
		}
	}
}

// TestServerDataDirSilentServer: a listener that accepts and never answers
// costs the probe its timeout, not more, and counts as no server.
func TestServerDataDirSilentServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	if id, running := ServerDataDir(context.Background(), port, 50*time.Millisecond); running || id != "" {
		t.Errorf("silent server: %q, %v", id, running)
	}
}

// FuzzHealthDataDir: whatever answers on the port, the probe never panics
// and calls it Paige only with status 200 and "status":"ok".
func FuzzHealthDataDir(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\n\r\n{\"status\":\"ok\",\"dataDirId\":\"a\"}"))
	f.Add([]byte("HTTP/1.1 200\r\n\r\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, resp []byte) {
		if _, running := healthDataDir(resp); running && (!bytes.Contains(resp, []byte(" 200")) || !bytes.Contains(resp, []byte("ok"))) {
			t.Errorf("%q counted as Paige", resp)
		}
	})
}
