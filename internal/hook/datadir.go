package hook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
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

// maxHealthResponse bounds what [ServerDataDir] reads of the answer.
const maxHealthResponse = 1 << 16

// ServerDataDir asks the Paige server on 127.0.0.1:port for its DATA_DIR's
// [DataDirID] (the "dataDirId" of GET /health). running is false when
// nothing answers like Paige within timeout (status 200 and a JSON body
// with "status":"ok"); id is "" for a Paige that does not report it.
//
// It speaks HTTP/1.0 over one TCP connection (package net) instead of
// using net/http: the request is one fixed line, a Go server answers an
// HTTP/1.0 request with the body as it is (never chunked) and closes the
// connection, and linking net/http would cost the SessionStart hook's
// process a third of its start-up (docs/performance.md). A response in any
// other shape is "not Paige".
func ServerDataDir(ctx context.Context, port int, timeout time.Duration) (id string, running bool) {
	resp, ok := getHealth(ctx, port, timeout)
	if !ok {
		return "", false
	}
	return healthDataDir(resp)
}

// getHealth sends GET /health to 127.0.0.1:port and returns the whole
// answer, read until the server closes the connection; ok is false when the
// connection, the request or the read fails, the answer is longer than
// maxHealthResponse, or timeout (or ctx) ends it first.
func getHealth(ctx context.Context, port int, timeout time.Duration) (resp []byte, ok bool) {
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

// healthAddr is the address [ServerDataDir] asks, "127.0.0.1:port".
func healthAddr(port int) string {
	return "127.0.0.1:" + strconv.Itoa(port)
}

// healthRequest is the request [ServerDataDir] sends to addr.
func healthRequest(addr string) string {
	return "GET /health HTTP/1.0\r\nHost: " + addr + "\r\nAccept: application/json\r\n\r\n"
}

// healthDataDir reads a raw HTTP response to GET /health (see
// [ServerDataDir]).
func healthDataDir(resp []byte) (id string, ok bool) {
	head, body, found := bytes.Cut(resp, []byte("\r\n\r\n"))
	if !found {
		return "", false
	}
	status, _, _ := bytes.Cut(head, []byte("\r\n"))
	proto, rest, _ := bytes.Cut(status, []byte(" "))
	code, _, _ := bytes.Cut(rest, []byte(" "))
	if !bytes.HasPrefix(proto, []byte("HTTP/1.")) || string(code) != "200" {
		return "", false
	}
	var b struct {
		Status    string `json:"status"`
		DataDirID string `json:"dataDirId"`
	}
	if json.Unmarshal(body, &b) != nil || b.Status != "ok" {
		return "", false
	}
	return b.DataDirID, true
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
