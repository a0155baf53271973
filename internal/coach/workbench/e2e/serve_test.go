package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// copyDir copies the regular files of src into dst (the demo project).
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

// server is one `paige serve` process that can be restarted on its port.
type server struct {
	bin   string
	env   []string
	logs  *testenv.SyncBuffer
	cmd   *exec.Cmd
	done  chan struct{}
	base  string // http://127.0.0.1:PORT
	wbURL string // the workbench URL with ?token=
	port  string
}

var workbenchLine = regexp.MustCompile(`Paige workbench: (http://127\.0\.0\.1:(\d+)/\S*)`)

// start runs paige serve (on port, "0" for any) and waits until it prints
// the workbench URL and /health answers.
func (s *server) start(port string) error {
	cmd := exec.Command(s.bin, "serve")
	cmd.Env = append(append([]string{}, s.env...), "PORT="+port)
	pr, pw := io.Pipe()
	cmd.Stdout = io.MultiWriter(s.logs, pw)
	cmd.Stderr = s.logs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start paige serve: %w", err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { _ = cmd.Wait(); pw.Close(); close(s.done) }()
	found := make(chan []string, 1)
	go func() {
		var acc []byte
		buf := make([]byte, 4096)
		for {
			n, err := pr.Read(buf)
			acc = append(acc, buf[:n]...)
			if m := workbenchLine.FindStringSubmatch(string(acc)); m != nil {
				found <- m
				_, _ = io.Copy(io.Discard, pr)
				return
			}
			if err != nil {
				close(found)
				return
			}
		}
	}()
	select {
	case m, ok := <-found:
		if !ok {
			s.cmd = nil
			return fmt.Errorf("paige serve exited before printing the workbench URL")
		}
		s.wbURL, s.port = m[1], m[2]
		s.base = "http://127.0.0.1:" + s.port
	case <-time.After(60 * time.Second):
		s.stop()
		return fmt.Errorf("paige serve printed no workbench URL in 60s")
	}
	return waitHealthy(s.base)
}

// stop interrupts the server and waits for it to exit.
func (s *server) stop() {
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

// restart stops the server and starts it again on the same port (retrying
// while the port is still held).
func (s *server) restart() error {
	s.stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.start(s.port)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func waitHealthy(base string) error {
	deadline := time.Now().Add(30 * time.Second)
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
	return fmt.Errorf("%s/health did not answer 200 within 30s", base)
}
