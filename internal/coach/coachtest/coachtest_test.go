package coachtest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNew(t *testing.T) {
	t.Parallel()
	env := New(t, map[string]string{"src/a.go": "package a\n", "empty/": ""})
	if b, err := os.ReadFile(filepath.Join(env.Project, "src", "a.go")); err != nil || string(b) != "package a\n" {
		t.Errorf("src/a.go: %q, %v", b, err)
	}
	if fi, err := os.Stat(filepath.Join(env.Project, "empty")); err != nil || !fi.IsDir() {
		t.Errorf("empty/: %v, %v", fi, err)
	}
	if f, err := env.WS.ReadFile("src/a.go"); err != nil || f.Content != "package a\n" {
		t.Errorf("workspace read: %+v, %v", f, err)
	}
	if err := env.Store.DB().Ping(); err != nil {
		t.Errorf("store: %v", err)
	}
	if env.Actions.Bus() == nil {
		t.Error("no action log bus")
	}
}
