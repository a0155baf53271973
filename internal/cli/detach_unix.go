//go:build unix

package cli

import (
	"os"
	"os/exec"
	"syscall"
)

// startDetached starts bin with args in a new session (setsid), so it
// outlives the hook and Claude Code's process group, with stdin from
// /dev/null and stdout and stderr to out. It does not wait for it.
func startDetached(bin string, args []string, out *os.File) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
