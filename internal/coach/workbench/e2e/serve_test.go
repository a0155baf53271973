package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// demo is the set-up every workbench journey shares: the browser, the built
// binary, and a copy of examples/demo-project in tmp/project.
type demo struct {
	browser           *testenv.Browser
	bin, tmp, project string
}

func newDemo(t testing.TB) *demo {
	t.Helper()
	d := &demo{browser: testenv.NewBrowser(t, "workbench"), bin: testenv.BuildPaige(t), tmp: t.TempDir()}
	d.project = filepath.Join(d.tmp, "project")
	copyDir(t, filepath.Join(testenv.RepoRoot(t), "examples/demo-project"), d.project)
	return d
}

// startWorkbench starts `paige serve` with env and fails t unless it
// printed the workbench URL (it does when the terminal is on).
func startWorkbench(t testing.TB, bin string, env []string) *testenv.Serve {
	t.Helper()
	srv := testenv.StartServe(t, bin, env)
	if srv.WorkbenchURL == "" {
		t.Fatalf("paige serve printed no workbench URL\n%s", testenv.Tail(srv.Logs.String(), 4000))
	}
	return srv
}

// copyDir copies the regular files of src into dst (the demo project).
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}
