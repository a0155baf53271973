//go:build linux

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestPaigeHookBinarySignals: SIGTERM or SIGINT while the hook waits for
// its input stops neither `paige hook session-start` (which catches them)
// nor paige-hook (which ignores them): both wait out the stdin timeout,
// print the context and exit 0, with the same bytes.
func TestPaigeHookBinarySignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries and waits out the stdin timeout")
	}
	paige, paigeHook := builtPaige(t), builtPaigeHook(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			var got [2]procResult
			var wg sync.WaitGroup
			for i, args := range [][]string{{paige, "hook", "session-start"}, {paigeHook, "session-start"}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = runSignalled(t, sig, args)
				}()
			}
			wg.Wait()
			if got[0] != got[1] || got[0].code != 0 || got[0].stdout != goldenContext(t) || !strings.Contains(got[0].stderr, "no hook input within") {
				t.Errorf("after %v:\npaige hook: %+v\npaige-hook: %+v", sig, got[0], got[1])
			}
		})
	}
}

// runSignalled starts args with a valid seed and a stdin that stays open,
// sends sig once the process has read the first byte of its input
// (TIOCINQ, FIONREAD on Linux, finds the pipe empty: so it
// is past its start, waiting for the rest), and returns what it printed.
func runSignalled(t *testing.T, sig syscall.Signal, args []string) procResult {
	home, _ := testSeed(t, "valid-seed.json")
	r, w, err := os.Pipe()
	if err != nil {
		t.Error(err)
		return procResult{}
	}
	defer w.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = []string{"PATH=" + testenv.ToolPath(t, "git"), "HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PORT=1"}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &out, &errb
	if err := cmd.Start(); err != nil {
		t.Error(err)
		return procResult{}
	}
	r.Close()
	if _, err := w.WriteString("{"); err != nil {
		t.Error(err)
	}
	for deadline := time.Now().Add(testWait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if n, err := unix.IoctlGetInt(int(w.Fd()), unix.TIOCINQ); err != nil || n == 0 {
			break
		}
	}
	_ = cmd.Process.Signal(sig)
	res := procResult{}
	if err := cmd.Wait(); err != nil {
		res.code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			res.code = ee.ExitCode()
		}
	}
	res.stdout, res.stderr = out.String(), errb.String()
	return res
}
