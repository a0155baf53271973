package hook

import (
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
