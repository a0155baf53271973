//go:build !unix

package cli

import (
	"os"
	"os/exec"
)

// startDetached starts bin with args with stdout and stderr to out and does
// not wait for it.
func startDetached(bin string, args []string, out *os.File) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
