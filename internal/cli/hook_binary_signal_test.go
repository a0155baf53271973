//go:build linux

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PORT=1"}
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

// TestPaigeHookBinaryGitSignalDispositions: the git that --record-session
// runs starts with SIGINT and SIGTERM at their default dispositions under
// paige-hook (which ignores them until then) as under paige.
func TestPaigeHookBinaryGitSignalDispositions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git, which --record-session runs: %v", err)
	}
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "sigign")
	script := "#!/bin/sh\ngrep '^SigIgn' /proc/$$/status >> " + log + "\nexec " + realGit + ` "$@"` + "\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	var ignored [2]string
	for i, args := range [][]string{{builtPaige(t), "hook", "session-start"}, {builtPaigeHook(t), "session-start"}} {
		home, seedPath := testSeed(t, "valid-seed.json")
		env := []string{path, "HOME=" + home, "DATA_DIR=" + filepath.Join(home, "data"), "PORT=1"}
		r := runHookProcess(t, args[0], t.TempDir(), env, hookJSON, seedPath, append(args[1:], "--record-session")...)
		b, err := os.ReadFile(log)
		if err != nil || r.code != 0 || !strings.Contains(r.commits, " started") {
			t.Fatalf("%s: exit %d, commits %q, git log %v", args[0], r.code, r.commits, err)
		}
		ignored[i] = string(b)
		os.Remove(log)
	}
	if ignored[0] != ignored[1] {
		t.Errorf("git's ignored signals under paige:\n%s\nunder paige-hook:\n%s", ignored[0], ignored[1])
	}
	for _, line := range strings.Split(strings.TrimSpace(ignored[1]), "\n") {
		mask, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(line, "SigIgn:")), 16, 64)
		if err != nil || mask&(1<<(syscall.SIGINT-1)|1<<(syscall.SIGTERM-1)) != 0 {
			t.Errorf("git started with SIGINT or SIGTERM ignored: %q", line)
		}
	}
}
