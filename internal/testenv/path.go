package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ToolPath returns a PATH value for a process a test starts: one temporary
// directory holding a link to each named tool as found on the test's own
// PATH (the test fails when one is missing) and nothing else, so that the
// process never finds what else the machine has installed (`claude`,
// `gh`). Tests give fakes of those explicitly.
func ToolPath(tb testing.TB, tools ...string) string {
	tb.Helper()
	dir := tb.TempDir()
	for _, name := range tools {
		p, err := exec.LookPath(name)
		if err != nil {
			tb.Fatalf("%s, which the process under test runs: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
