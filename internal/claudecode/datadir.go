package claudecode

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"
)

// DataDirID identifies a DATA_DIR without disclosing it: the first 16 hex
// digits of the SHA-256 of its absolute path with symlinks resolved (as
// given, made absolute, when it does not exist). GET /health reports the
// server's as "dataDirId" (/health is outside the origin policy, so it
// carries no path).
func DataDirID(dir string) string {
	p, err := filepath.Abs(dir)
	if err != nil {
		p = dir
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	sum := sha256.Sum256([]byte(filepath.Clean(p)))
	return hex.EncodeToString(sum[:8])
}

// ServerDataDir asks the Paige server on 127.0.0.1:port for its DATA_DIR's
// [DataDirID] (the "dataDirId" of GET /health). running is false when
// nothing answers like Paige within timeout; id is "" for a Paige that does
// not report it.
func ServerDataDir(ctx context.Context, port int, timeout time.Duration) (id string, running bool) {
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
		Status    string `json:"status"`
		DataDirID string `json:"dataDirId"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<16)).Decode(&body) != nil || body.Status != "ok" {
		return "", false
	}
	return body.DataDirID, true
}

// DataDirMismatch returns a one-line warning when the Paige server on port
// uses another DATA_DIR than dataDir (the hook's or doctor's), and "" when
// they agree, the server is not running, or it does not say. The read-only
// hook reads the coaching sessions from its own DATA_DIR, so a mismatch
// silently switches it off.
func DataDirMismatch(ctx context.Context, port int, dataDir string, timeout time.Duration) string {
	id, running := ServerDataDir(ctx, port, timeout)
	if !running || id == "" || id == DataDirID(dataDir) {
		return ""
	}
	return fmt.Sprintf("paige serve on port %d uses another DATA_DIR than the hooks (DATA_DIR=%s): read-only enforcement and the session-end wrap-up cannot see the server's coaching sessions; set the same DATA_DIR for both (or unset it in both)", port, dataDir)
}
