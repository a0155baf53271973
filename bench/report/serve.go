package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// server is one running `paige serve`.
type server struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT
	log  bytes.Buffer
	// ready is the wall time from exec to the first 200 from /health, and
	// cpu the server's CPU time at that moment (in nanoseconds,
	// proc.CPUExact).
	ready, cpu time.Duration
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startServe starts `paige serve` offline on project with its data dir
// and HOME under dir (made when missing: a first start; an earlier
// start's are reused: a restart), and waits (at most a minute) for /health.
func (r *runner) startServe(ctx context.Context, project, dir string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	for _, d := range []string{"home", "data"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	s := &server{base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	s.cmd = exec.Command(r.paige, "serve")
	s.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"),
		"PROJECT_DIR=" + project, "DATA_DIR=" + filepath.Join(dir, "data"), "PAIGE_OFFLINE=1",
		"PORT=" + strconv.Itoa(port), "LOG_LEVEL=warn"}
	s.cmd.Stdout, s.cmd.Stderr = &s.log, &s.log
	client := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start paige serve: %w", err)
	}
	for deadline := start.Add(time.Minute); ; {
		resp, err := client.Get(s.base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.ready = time.Since(start)
				s.cpu, _ = proc.CPUExact(s.cmd.Process.Pid)
				return s, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.stop()
			return nil, fmt.Errorf("paige serve not healthy after %v: %v\n%s", time.Since(start), err, s.log.Bytes())
		}
		time.Sleep(time.Millisecond) // polling: the quantity measured is this wait
	}
}

// A server is idle (settle) once its CPU time has moved by less than
// idleCPU for quietFor: an idle paige serve spends none, a timer may wake
// it. quietFor is longer than the wait before serve gives back its
// start-up pages (250 ms after its first walk). settleLimit bounds the wait.
const (
	idleCPU     = time.Millisecond
	quietFor    = time.Second
	settleLimit = 30 * time.Second
)

// settle waits until the server's CPU time has moved by less than idleCPU
// for quiet (at most limit), so work started before /health answered (a
// background walk of a large project) is done, and returns its CPU time
// then.
func (s *server) settle(quiet, limit time.Duration) time.Duration {
	last, _ := proc.CPUExact(s.pid())
	mark, still := last, time.Now()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond) // sampling the CPU clock: the quantity observed is the CPU time
		last, _ = proc.CPUExact(s.pid())
		if last-mark >= idleCPU {
			mark, still = last, time.Now()
		} else if time.Since(still) >= quiet {
			break
		}
	}
	return last
}

// pid is the server's process id.
func (s *server) pid() int { return s.cmd.Process.Pid }

// rss is the server's resident memory in MiB now.
func (s *server) rss() float64 {
	b, _ := proc.RSS(s.pid())
	return float64(b) / (1 << 20)
}

// stop interrupts the server and waits (at most 30 s, then kills it).
func (s *server) stop() error {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
		return errors.New("paige serve did not stop within 30 s of SIGINT")
	}
}

// writeProject writes a project of n source files, 100 per directory,
// under dir, and returns dir.
func writeProject(dir string, n int) (string, error) {
	for i := range n {
		sub := filepath.Join(dir, "src", fmt.Sprintf("pkg%04d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return "", err
			}
		}
		body := fmt.Sprintf("export const value%d = %d;\n", i, i)
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%03d.ts", i%100)), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}
