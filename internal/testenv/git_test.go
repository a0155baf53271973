package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsolateGit(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/home/someone/.gitconfig")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "")
	t.Setenv("GIT_DIR", "/elsewhere/.git")
	t.Setenv("GIT_AUTHOR_EMAIL", "someone@example.com")
	IsolateGit()
	if got := os.Getenv("GIT_CONFIG_GLOBAL"); got != os.DevNull {
		t.Errorf("GIT_CONFIG_GLOBAL = %q, want %q", got, os.DevNull)
	}
	if got := os.Getenv("GIT_CONFIG_NOSYSTEM"); got != "1" {
		t.Errorf("GIT_CONFIG_NOSYSTEM = %q, want 1", got)
	}
	for _, k := range []string{"GIT_DIR", "GIT_AUTHOR_EMAIL"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s = %q, want it unset", k, v)
		}
	}
}

// TestToolPath: the PATH holds the named tools and nothing else.
func TestToolPath(t *testing.T) {
	path := ToolPath(t, "git")
	entries, err := os.ReadDir(path)
	if err != nil || len(entries) != 1 || entries[0].Name() != "git" {
		t.Fatalf("ToolPath dir: %v, %v", entries, err)
	}
	out, err := exec.Command(filepath.Join(path, "git"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "git version") {
		t.Errorf("linked git: %q, %v", out, err)
	}
}
