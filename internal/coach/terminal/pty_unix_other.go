//go:build unix && !linux

package terminal

import "syscall"

// setParentDeathSignal does nothing: only Linux has a parent-death signal.
// Elsewhere a paige killed without shutdown leaves the shell to SIGHUP from
// its closed pty.
func setParentDeathSignal(*syscall.SysProcAttr) {}
