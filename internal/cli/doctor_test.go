package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/server"
)

// fakePATH returns a directory holding executable scripts that print
// "<name> version 1.0", one per name.
func fakePATH(tb testing.TB, names ...string) string {
	tb.Helper()
	dir := tb.TempDir()
	for _, n := range names {
		writeExe(tb, filepath.Join(dir, n), fmt.Sprintf("#!/bin/sh\necho '%s version 1.0'\n", n))
	}
	return dir
}

func writeExe(tb testing.TB, path, script string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		tb.Fatal(err)
	}
}

// freePort returns a port nothing listens on.
func freePort(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// doctorEnv is a healthy environment: project, offline, fake git/gh/paige, Paige installed.
func doctorEnv(tb testing.TB) map[string]string {
	tb.Helper()
	home := tb.TempDir()
	vars := map[string]string{
		"HOME": home, "DATA_DIR": tb.TempDir(), "PROJECT_DIR": tb.TempDir(),
		"PAIGE_OFFLINE": "1", "PORT": freePort(tb), "PATH": fakePATH(tb, "git", "gh", "paige", "paige-hook"),
	}
	bin := filepath.Join(vars["PATH"], "paige")
	if _, errOut, err := runPaige(tb, vars, "", "claude", "install", "--bin", bin); err != nil {
		tb.Fatalf("install: %v %s", err, errOut)
	}
	return vars
}

func lineOf(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(strings.TrimPrefix(strings.TrimPrefix(l, "✓ "), "✗ "), name) {
			return l
		}
	}
	return ""
}

func TestDoctorHealthy(t *testing.T) {
	t.Chdir(t.TempDir())
	vars := doctorEnv(t)
	out, _, err := runPaige(t, vars, "", "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	for _, name := range []string{"binary", "config", "port", "data dir", "database", "memory", "git", "gh", "claude key", "learn queue", "claude hooks", "claude mcp"} {
		if l := lineOf(out, name); !strings.HasPrefix(l, "✓") {
			t.Errorf("%s: line %q, want ✓\n%s", name, l, out)
		}
	}
	if !strings.Contains(out, "Everything is ready.") || !strings.Contains(lineOf(out, "git"), "git version 1.0") {
		t.Errorf("output:\n%s", out)
	}
}

func TestDoctorProblems(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct {
		name     string
		change   func(tb testing.TB, vars map[string]string)
		line     string // the check that fails
		fix      string // text of its fix
		required bool
	}{
		{"no git", func(tb testing.TB, v map[string]string) { v["PATH"] = fakePATH(tb, "gh", "paige", "paige-hook") }, "git", "install git", false},
		{"no gh", func(tb testing.TB, v map[string]string) { v["PATH"] = fakePATH(tb, "git", "paige", "paige-hook") }, "gh", "gh auth login", false},
		{"no key", func(tb testing.TB, v map[string]string) { delete(v, "PAIGE_OFFLINE"); v["ANTHROPIC_API_KEY"] = "nope" }, "claude key", "console.anthropic.com", false},
		{"no project", func(tb testing.TB, v map[string]string) { delete(v, "PROJECT_DIR") }, "config", "export PROJECT_DIR", true},
		{"bad port", func(tb testing.TB, v map[string]string) { v["PORT"] = "http" }, "config", "fix the variable", true},
		{"corrupt database", func(tb testing.TB, v map[string]string) {
			writeFile(tb, filepath.Join(v["DATA_DIR"], "paige.db"), strings.Repeat("garbage ", 200))
		}, "database", "move it aside", true},
		{"corrupt memory store", func(tb testing.TB, v map[string]string) {
			writeFile(tb, filepath.Join(v["DATA_DIR"], "memory.db"), strings.Repeat("garbage ", 200))
		}, "memory", "memories start afresh", true},
		{"bad memory backend", func(tb testing.TB, v map[string]string) { v["PAIGE_MEMORY"] = "redis" }, "memory", "PAIGE_MEMORY to embedded", true},
		{"chroma down", func(tb testing.TB, v map[string]string) { v["CHROMADB_URL"] = "http://127.0.0.1:" + freePort(tb) }, "memory", "start ChromaDB", true},
		{"not installed", func(tb testing.TB, v map[string]string) { v["HOME"] = tb.TempDir() }, "claude hooks", "paige claude install", false},
		{"plugin and settings both", func(tb testing.TB, v map[string]string) {
			p := filepath.Join(v["HOME"], ".claude", "settings.json")
			data, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			writeFile(tb, p, strings.Replace(string(data), "{", `{"enabledPlugins": {"paige@local": true},`, 1))
		}, "claude hooks", "keep one", false},
		{"coaching-state left in settings", func(tb testing.TB, v map[string]string) {
			p := filepath.Join(v["HOME"], ".claude", "settings.json")
			old := `{"hooks": [{"type": "command", "command": "` + filepath.Join(v["PATH"], "paige") + ` hook coaching-state", "timeout": 10}]},`
			writeFile(tb, p, strings.Replace(string(mustRead(tb, p)), `"SessionStart": [`, `"SessionStart": [`+old, 1))
		}, "claude hooks", "one SessionStart hook", false},
		{"binary moved", func(tb testing.TB, v map[string]string) { os.Remove(filepath.Join(v["PATH"], "paige")) }, "claude hooks", "paige claude install", false},
		{"port taken", func(tb testing.TB, v map[string]string) {
			ln, err := net.Listen("tcp", "127.0.0.1:"+v["PORT"])
			if err != nil {
				tb.Fatal(err)
			}
			srv := &http.Server{Handler: http.NotFoundHandler()}
			go srv.Serve(ln)
			tb.Cleanup(func() { srv.Close() })
		}, "port", "export PORT", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := doctorEnv(t)
			tt.change(t, vars)
			out, _, err := runPaige(t, vars, "", "doctor")
			var exit *ExitError
			if tt.required != errors.As(err, &exit) {
				t.Errorf("err = %v, want a failing exit: %v\n%s", err, tt.required, out)
			}
			l := lineOf(out, tt.line)
			if !strings.HasPrefix(l, "✗") {
				t.Errorf("line %q, want ✗\n%s", l, out)
			}
			if !strings.Contains(out, "fix: ") || !strings.Contains(out, tt.fix) {
				t.Errorf("no fix %q in:\n%s", tt.fix, out)
			}
		})
	}
}

func TestDoctorSeesRunningPaigeAndChroma(t *testing.T) {
	t.Chdir(t.TempDir())
	vars := doctorEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /health", server.HandleHealth(time.Now(), nil))
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	vars["PORT"] = fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)

	chroma := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v2/heartbeat" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"nanosecond heartbeat": 1}`)
	}))
	t.Cleanup(chroma.Close)
	vars["CHROMADB_URL"] = chroma.URL

	out, _, err := runPaige(t, vars, "", "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	if l := lineOf(out, "port"); !strings.Contains(l, "✓") || !strings.Contains(l, "Paige is running") {
		t.Errorf("port line %q", l)
	}
	if l := lineOf(out, "memory"); !strings.Contains(l, "✓") || !strings.Contains(l, "ChromaDB") {
		t.Errorf("memory line %q", l)
	}
}

func TestDoctorUnwritableDataDir(t *testing.T) {
	// A file where a directory is expected: unwritable even for root.
	t.Chdir(t.TempDir())
	vars := doctorEnv(t)
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	vars["DATA_DIR"] = filepath.Join(file, "data")
	out, _, err := runPaige(t, vars, "", "doctor")
	if err == nil || !strings.HasPrefix(lineOf(out, "data dir"), "✗") {
		t.Errorf("err %v, output:\n%s", err, out)
	}
	if _, serr := os.Stat(filepath.Join(file, "data")); serr == nil {
		t.Error("doctor created DATA_DIR")
	}
}
