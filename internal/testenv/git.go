package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// IsolateGit makes git, in this process and every command it starts, see
// a fresh machine: no global or system configuration, and none of the
// variables that set an author or committer or point at another
// repository. Call it from TestMain, before m.Run.
func IsolateGit() {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR", "GIT_WORK_TREE"} {
		os.Unsetenv(k)
	}
}

// Git runs git with args in dir, isolated from the user's and the system's
// configuration and with a fixed author and committer (t <t@example.com>),
// and returns its output (standard output and error) trimmed of surrounding
// space; a failure fails tb with that output.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
