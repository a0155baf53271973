//go:build linux

package terminal

import "syscall"

// setParentDeathSignal makes the kernel kill the shell if paige dies without
// running its shutdown (SIGKILL, a crash): the shell never outlives the
// server. (Pdeathsig follows the thread that started the child; the Go
// runtime does not retire threads of goroutines that are not locked to one.)
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
