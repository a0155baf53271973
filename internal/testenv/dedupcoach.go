package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// KillHelper runs helper, a test of the running test binary that prints
// "started" once it is at work and then works until it is killed, as a
// separate process with env added to its environment, and kills it
// (SIGKILL) killAfter after it said it started. It fails t when the helper
// exits on its own or does not start within 60 s. Tests of what a killed
// process leaves behind (a torn file, a temporary file) use it.
func KillHelper(t testing.TB, helper string, env []string, killAfter time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	var out SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	for !strings.Contains(out.String(), "started") {
		select {
		case err := <-exited:
			t.Fatalf("%s exited: %v\n%s", helper, err, out.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			<-exited
			t.Fatalf("%s did not start within 60s:\n%s", helper, out.String())
		case <-time.After(time.Millisecond):
		}
	}
	time.Sleep(killAfter)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
}
