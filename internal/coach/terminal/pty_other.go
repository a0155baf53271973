//go:build !unix

package terminal

import (
	"errors"
	"os"
	"os/exec"
	"time"
)

var errNoPTY = errors.New("terminal: the workbench terminal needs a Unix system")

func startShell(string, string, []string, int, int) (*exec.Cmd, *os.File, error) {
	return nil, nil, errNoPTY
}

func resize(*os.File, int, int) error { return errNoPTY }

func killGroup(int, <-chan struct{}, time.Duration) {}
