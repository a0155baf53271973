package terminal

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// maxInputFrame bounds one client frame (a large paste).
const maxInputFrame = 1 << 20

// shell is one running terminal.
type shell struct {
	cmd    *exec.Cmd
	pty    *os.File
	exited chan struct{} // closed once cmd.Wait returned
	code   int           // exit code, valid after exited; -1 when signalled
}

// serve upgrades r, starts the shell and relays until one side ends.
func (m *Manager) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true}) // the policy and the key were checked in ServeHTTP
	if err != nil {
		m.log.Warn("terminal upgrade failed", "err", err)
		return
	}
	ws.SetReadLimit(maxInputFrame)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	cols, rows := sizeParam(r, "cols", DefaultCols), sizeParam(r, "rows", DefaultRows)
	cmd, f, err := startShell(m.o.Shell, m.o.Dir, m.environ(m.baseURL(r)), cols, rows)
	if err != nil {
		m.log.Error("terminal: shell did not start", "shell", m.o.Shell, "err", err)
		writeJSON(ctx, ws, Error{Type: TypeError, Message: "the shell " + m.o.Shell + " did not start: " + err.Error()})
		_ = ws.Close(websocket.StatusInternalError, "shell did not start")
		return
	}
	sh := &shell{cmd: cmd, pty: f, exited: make(chan struct{})}
	m.log.Info("terminal opened", "shell", m.o.Shell, "pid", cmd.Process.Pid, "dir", m.o.Dir)
	go func() {
		err := cmd.Wait()
		sh.code = exitCode(err)
		close(sh.exited)
	}()
	m.relay(ctx, ws, sh)
	m.log.Info("terminal closed", "pid", cmd.Process.Pid)
}

// relay pumps both directions and ends the shell, whichever side stops.
func (m *Manager) relay(ctx context.Context, ws *websocket.Conn, sh *shell) {
	outDone := make(chan struct{})
	go func() { defer close(outDone); pumpOutput(ctx, ws, sh.pty) }()
	inDone := make(chan struct{})
	go func() { defer close(inDone); m.pumpInput(ctx, ws, sh.pty) }()

	end := func() {
		killGroup(sh.cmd.Process.Pid, sh.exited, m.o.Grace)
		_ = sh.pty.Close() // ends pumpOutput
		<-sh.exited
	}
	select {
	case <-sh.exited:
		// Let the last output drain; a background job still holding the pty
		// must not keep the socket open, hence the bounded wait.
		t := time.NewTimer(m.o.Grace)
		select {
		case <-outDone:
		case <-t.C:
		}
		t.Stop()
		end()
		<-outDone
		writeJSON(ctx, ws, Exit{Type: TypeExit, Code: sh.code})
		_ = ws.Close(websocket.StatusNormalClosure, "shell exited")
	case <-inDone: // the page closed or the socket failed
		end()
		_ = ws.CloseNow()
	case <-m.closing:
		end()
		_ = ws.Close(websocket.StatusGoingAway, "server shutting down")
	}
	<-outDone
	_ = ws.CloseNow()
	<-inDone
}

// pumpOutput copies pty output to binary frames until the pty fails
// (closed, or EIO once the shell and its children are gone).
func pumpOutput(ctx context.Context, ws *websocket.Conn, f *os.File) {
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			if werr := ws.Write(ctx, websocket.MessageBinary, buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// pumpInput applies client frames until the socket fails or closes: binary
// frames and input messages go to the shell, resize resizes the pty. A bad
// control message is answered with an error message and skipped.
func (m *Manager) pumpInput(ctx context.Context, ws *websocket.Conn, f *os.File) {
	for {
		typ, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if typ == websocket.MessageBinary {
			if _, err := f.Write(b); err != nil {
				return
			}
			continue
		}
		c, err := parseControl(b)
		switch {
		case err != nil:
			m.log.Warn("terminal: bad control message", "err", err)
			writeJSON(ctx, ws, Error{Type: TypeError, Message: err.Error()})
		case c.input != nil:
			if _, err := f.Write([]byte(c.input.Data)); err != nil {
				return
			}
		case c.resize != nil:
			if err := resize(f, c.resize.Cols, c.resize.Rows); err != nil {
				m.log.Warn("terminal: resize failed", "err", err)
			}
		}
	}
}

func writeJSON(ctx context.Context, ws *websocket.Conn, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = ws.Write(wctx, websocket.MessageText, b)
}

// sizeParam reads a 1..MaxSize query parameter, def when absent or invalid.
func sizeParam(r *http.Request, name string, def int) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil || n < 1 || n > MaxSize {
		return def
	}
	return n
}

// exitCode is the shell's exit status; -1 when a signal ended it.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
