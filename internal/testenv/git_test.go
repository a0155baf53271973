package testenv

import (
	"os"
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
