package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"
)

// ServerDataDir asks the Paige server on 127.0.0.1:port for its DATA_DIR
// (the "dataDir" of GET /health). running is false when nothing answers
// like Paige within timeout; dir is "" for a Paige that does not report it.
func ServerDataDir(ctx context.Context, port int, timeout time.Duration) (dir string, running bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/health"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var body struct {
		Status  string `json:"status"`
		DataDir string `json:"dataDir"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<16)).Decode(&body) != nil || body.Status != "ok" {
		return "", false
	}
	return body.DataDir, true
}

// SameDir reports whether two directory paths name the same directory:
// equal once made absolute and cleaned, or resolving (symlinks followed)
// to the same existing directory.
func SameDir(a, b string) bool {
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == bb {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// DataDirMismatch returns a one-line warning when the Paige server on port
// uses another DATA_DIR than dataDir (the hook's or doctor's), and "" when
// they agree, the server is not running, or it does not say. The read-only
// hook reads the coaching sessions from its own DATA_DIR, so a mismatch
// silently switches it off.
func DataDirMismatch(ctx context.Context, port int, dataDir string, timeout time.Duration) string {
	dir, running := ServerDataDir(ctx, port, timeout)
	if !running || dir == "" || SameDir(dir, dataDir) {
		return ""
	}
	return fmt.Sprintf("paige serve on port %d uses DATA_DIR=%s but the hooks use DATA_DIR=%s: read-only enforcement and session tracking cannot see the server's coaching sessions; set the same DATA_DIR for both (or unset it in both)", port, dir, dataDir)
}
