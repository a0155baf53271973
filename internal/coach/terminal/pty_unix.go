//go:build unix

package terminal

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// startShell starts shell as an interactive login-less shell on a new
// pseudo-terminal of cols×rows in dir with env. The shell leads a new
// session (setsid), so its process group can be signalled as a whole, and
// the pty is its controlling terminal.
func startShell(shell, dir string, env []string, cols, rows int) (*exec.Cmd, *os.File, error) {
	cmd := exec.Command(shell)
	cmd.Dir = dir
	cmd.Env = env
	attrs := &syscall.SysProcAttr{Setsid: true, Setctty: true}
	setParentDeathSignal(attrs)
	f, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}, attrs)
	if err != nil {
		return nil, nil, err
	}
	return cmd, f, nil
}

// resize sets the pty's window size (the kernel sends SIGWINCH).
func resize(f *os.File, cols, rows int) error {
	return pty.Setsize(f, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
}

// killGroup ends the shell's process group: SIGHUP (and SIGCONT, so stopped
// jobs see it), then, if the shell has not exited within grace (exited is
// closed when it has), SIGKILL to whatever is left in the group.
func killGroup(pid int, exited <-chan struct{}, grace time.Duration) {
	_ = syscall.Kill(-pid, syscall.SIGHUP)
	_ = syscall.Kill(-pid, syscall.SIGCONT)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
