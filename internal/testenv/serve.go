package testenv

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Serve is one `paige serve` process of a built binary, which a test can
// stop and start again on the same port. Not safe for concurrent use.
type Serve struct {
	Bin  string      // the paige binary ([BuildPaige])
	Env  []string    // the process's whole environment, without PORT
	Logs *SyncBuffer // everything the process printed, across restarts

	Base         string // http://127.0.0.1:PORT once started
	WorkbenchURL string // the printed workbench URL with ?token=, "" when none was printed

	cmd  *exec.Cmd
	done chan struct{}
}

// StartServe starts bin's `paige serve` on a free port with env and returns
// it once /health answers; tb fails with the log's tail when it does not.
// The process is stopped by tb's cleanup.
func StartServe(tb testing.TB, bin string, env []string) *Serve {
	tb.Helper()
	s := &Serve{Bin: bin, Env: env, Logs: &SyncBuffer{}}
	if err := s.Start("0"); err != nil {
		tb.Fatalf("%v\n%s", err, Tail(s.Logs.String(), 4000))
	}
	tb.Cleanup(s.Stop)
	return s
}

// Start runs paige serve on port ("0" for any free one) and waits until it
// prints its ready line (60s at most) and /health answers 200.
func (s *Serve) Start(port string) error {
	cmd := exec.Command(s.Bin, "serve")
	cmd.Env = append(append([]string{}, s.Env...), "PORT="+port)
	ready := make(chan readyLines, 1)
	cmd.Stdout = &readyWriter{out: s.Logs, ready: ready}
	cmd.Stderr = s.Logs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start paige serve: %w", err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { _ = cmd.Wait(); close(s.done) }()
	select {
	case r := <-ready:
		s.Base, s.WorkbenchURL = r.base, r.workbench
	case <-s.done:
		s.cmd = nil
		return fmt.Errorf("paige serve exited before it was ready")
	case <-time.After(60 * time.Second):
		s.Stop()
		return fmt.Errorf("paige serve printed no ready line in 60s")
	}
	if err := WaitHealthy(s.Base, 30*time.Second); err != nil {
		s.Stop()
		return err
	}
	return nil
}

// Port returns the port the server listens on (from Base).
func (s *Serve) Port() string { return s.Base[strings.LastIndex(s.Base, ":")+1:] }

// Stop interrupts the server and waits for it to exit (killing it after
// 20s). Stopping a stopped server does nothing.
func (s *Serve) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Restart stops the server and starts it again on the same port, retrying
// for 30s while the port is still held.
func (s *Serve) Restart() error {
	port := s.Port()
	s.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.Start(port)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// WaitHealthy polls base+"/health" until it answers 200, or returns an
// error after within.
func WaitHealthy(base string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s/health did not answer 200 within %s", base, within)
}

// readyLines are the URLs serve prints once it listens.
type readyLines struct{ base, workbench string }

// readyWriter copies serve's stdout to out and sends, once, the URLs of its
// "Paige workbench: URL" line (printed first, when there is a workbench) and
// its "Paige is ready on URL" line.
type readyWriter struct {
	out     io.Writer
	ready   chan<- readyLines
	partial []byte
	seen    readyLines
	sent    bool
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for !w.sent {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
		if url, ok := strings.CutPrefix(line, "Paige workbench: "); ok {
			w.seen.workbench = url
		}
		if url, ok := strings.CutPrefix(line, "Paige is ready on "); ok {
			w.seen.base, w.sent = url, true
			w.ready <- w.seen
		}
	}
	if w.sent {
		w.partial = nil
	}
	return w.out.Write(p)
}
