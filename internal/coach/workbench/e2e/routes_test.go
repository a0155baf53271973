package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestWorkbenchDayLong is the workbench as a developer keeps it open all
// day, against the real offline `paige serve` on a copy of the demo
// project: web/workbench/e2e/routes.mjs loads every route directly (a
// reload, a bookmark) at 1280×800 and 1024×640 with no page or console
// error; checks the first-run panel (the install line, the `claude mcp add`
// line with this server's MCP URL), the Status page, the project open
// without a coaching session (tree, editor, terminal, file create, rename,
// delete and search), every control of Work inside a 1024×640 viewport
// with a session, Claude Code's connection in the header, and that Memory,
// Status and Work come back by themselves after the server stops and
// starts again. This test is its Claude Code (an MCP client) and stops and
// starts the server when the script asks (CONTROL_URL).
func TestWorkbenchDayLong(t *testing.T) {
	d := newDemo(t)
	srv := startWorkbench(t, d.bin, []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(d.tmp, "home"), "HOST=127.0.0.1",
		"PROJECT_DIR=" + d.project, "DATA_DIR=" + filepath.Join(d.tmp, "data"), "PAIGE_TOKEN=" + token,
		"PAIGE_OFFLINE=1", "LOG_FORMAT=json",
	})
	ctl := &serverControl{t: t, srv: srv}
	control := httptest.NewServer(ctl)
	t.Cleanup(control.Close)
	t.Cleanup(ctl.disconnect)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if err := d.browser.Run(ctx, t, "e2e/routes.mjs", "WORKBENCH_URL="+srv.WorkbenchURL,
		"CONTROL_URL="+control.URL, "PROJECT_DIR="+d.project); err != nil {
		t.Errorf("routes.mjs: %v\npaige serve log (tail):\n%s", err, testenv.Tail(srv.Logs.String(), 6000))
	}
}

// serverControl answers routes.mjs: POST /connect (Claude Code connects
// over MCP), /stop and /start (the server, on the same port).
type serverControl struct {
	t    testing.TB
	srv  *testenv.Serve
	mu   sync.Mutex
	cs   *mcp.ClientSession
	port string
}

func (c *serverControl) disconnect() {
	if c.cs != nil {
		_ = c.cs.Close()
		c.cs = nil
	}
}

func (c *serverControl) step(ctx context.Context, name string) error {
	switch name {
	case "connect":
		cl := mcp.NewClient(&mcp.Implementation{Name: "claude-code-e2e", Version: "1"}, nil)
		cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.srv.Base + "/mcp"}, nil)
		if err != nil {
			return fmt.Errorf("mcp connect: %w", err)
		}
		c.cs = cs
		return nil
	case "stop":
		c.disconnect()
		c.port = c.srv.Port()
		c.srv.Stop()
		return nil
	case "start":
		deadline := time.Now().Add(30 * time.Second)
		for {
			err := c.srv.Start(c.port)
			if err == nil || time.Now().After(deadline) {
				return err
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return fmt.Errorf("unknown step %q", name)
}

func (c *serverControl) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
	defer cancel()
	c.mu.Lock()
	err := c.step(ctx, strings.TrimPrefix(r.URL.Path, "/"))
	c.mu.Unlock()
	if err != nil {
		c.t.Logf("control %s: %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]bool{"ok": true})
}
