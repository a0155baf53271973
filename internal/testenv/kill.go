package testenv

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// KillHelper runs the test named test of this test binary as a separate
// process with env added to its environment, waits until ready (given
// what the process wrote so far) reports true, then waits killAfter and
// kills it (SIGKILL on unix). It fails tb when the process exits before
// it is ready, or is not ready within a minute.
func KillHelper(tb testing.TB, test string, env []string, ready func(out string) bool, killAfter time.Duration) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	var out SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	for !ready(out.String()) {
		select {
		case err := <-exited:
			tb.Fatalf("helper %s exited before it was ready: %v\n%s", test, err, out.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			<-exited
			tb.Fatalf("helper %s was not ready within 60s:\n%s", test, out.String())
		case <-time.After(time.Millisecond):
		}
	}
	time.Sleep(killAfter)
	if err := cmd.Process.Kill(); err != nil {
		tb.Fatal(err)
	}
	<-exited
}
