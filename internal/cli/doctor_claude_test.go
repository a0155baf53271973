package cli

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/server"
)

// fakeServe answers GET /health like paige serve with DATA_DIR dataDir and
// returns its port.
func fakeServe(tb testing.TB, dataDir string) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /health", server.HandleHealthWith(time.Now(), nil, map[string]any{"dataDirId": hook.DataDirID(dataDir)}))
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// TestDoctorDataDirAgreement: doctor compares its DATA_DIR with the running
// server's, through a symlink too, and says how to fix a mismatch.
func TestDoctorDataDirAgreement(t *testing.T) {
	t.Chdir(t.TempDir())
	vars := doctorEnv(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(vars["DATA_DIR"], link); err != nil {
		t.Fatal(err)
	}
	vars["PORT"] = fakeServe(t, link)
	out, _, err := runPaige(t, vars, "", "doctor")
	if l := lineOf(out, "serve DATA_DIR"); err != nil || !strings.HasPrefix(l, "✓") {
		t.Errorf("same directory through a symlink: %v, line %q\n%s", err, l, out)
	}
	other := t.TempDir()
	vars["PORT"] = fakeServe(t, other)
	out, _, err = runPaige(t, vars, "", "doctor")
	l := lineOf(out, "serve DATA_DIR")
	if err != nil || !strings.HasPrefix(l, "✗") || !strings.Contains(l, "another DATA_DIR") || !strings.Contains(out, "same DATA_DIR") {
		t.Errorf("mismatch: err %v (not required), line %q\n%s", err, l, out)
	}
}

// TestHookWarnsDataDirMismatch: the SessionStart hook tells the session
// (context and stderr) when the server uses another DATA_DIR, and says
// nothing when they agree.
func TestHookWarnsDataDirMismatch(t *testing.T) {
	home, _ := testSeed(t, "valid-seed.json")
	data := t.TempDir()
	vars := map[string]string{"HOME": home, "DATA_DIR": data, "PORT": fakeServe(t, t.TempDir())}
	out, errOut, _ := runCLI(t, vars, "", "hook", "session-start")
	if !strings.Contains(out, "Paige warning: paige serve on port") || !strings.Contains(errOut, "uses another DATA_DIR") {
		t.Errorf("no warning on a mismatch:\nstdout %s\nstderr %s", out, errOut)
	}
	vars["PORT"] = fakeServe(t, data)
	if out, errOut, _ := runCLI(t, vars, "", "hook", "session-start"); strings.Contains(out+errOut, "DATA_DIR") {
		t.Errorf("warning although they agree:\n%s\n%s", out, errOut)
	}
	vars["PORT"] = freePort(t) // no server: nothing to compare
	if out, errOut, _ := runCLI(t, vars, "", "hook", "session-start"); strings.Contains(out+errOut, "DATA_DIR") {
		t.Errorf("warning without a server:\n%s\n%s", out, errOut)
	}
}

// TestDoctorSeesPlugin: a plugin loaded with --plugin-dir (seen through
// CLAUDE_PLUGIN_ROOT by the SessionStart hook) or enabled from a
// marketplace counts as installed; a disabled one does not.
func TestDoctorSeesPlugin(t *testing.T) {
	plugin, err := filepath.Abs(pluginDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	vars := doctorEnv(t)
	vars["HOME"] = t.TempDir() // nothing in settings
	out, _, _ := runPaige(t, vars, "", "doctor")
	if l := lineOf(out, "claude hooks"); !strings.HasPrefix(l, "✗") {
		t.Fatalf("not installed: %q", l)
	}
	if l := lineOf(out, "claude mcp"); !strings.HasPrefix(l, "✗") {
		t.Fatalf("no MCP server anywhere: %q", l)
	}

	hookVars := map[string]string{"HOME": vars["HOME"], "DATA_DIR": vars["DATA_DIR"], "PORT": vars["PORT"], "CLAUDE_PLUGIN_ROOT": plugin}
	if _, errOut, _ := runCLI(t, hookVars, `{"session_id":"s1","hook_event_name":"SessionStart"}`, "hook", "session-start"); errOut != "" {
		t.Logf("hook stderr: %s", errOut)
	}

	out, _, _ = runPaige(t, vars, "", "doctor")
	if l := lineOf(out, "claude hooks"); !strings.HasPrefix(l, "✓") || !strings.Contains(l, "plugin loaded from "+plugin) {
		t.Errorf("--plugin-dir plugin not seen: %q\n%s", l, out)
	}
	if l := lineOf(out, "claude mcp"); !strings.HasPrefix(l, "✓") || !strings.Contains(l, "plugin:paige:paige") {
		t.Errorf("the plugin brings the MCP server, yet: %q", l)
	}

	vars["HOME"], vars["DATA_DIR"] = t.TempDir(), t.TempDir()
	settings := filepath.Join(vars["HOME"], ".claude", "settings.json")
	writeFile(t, settings, `{"enabledPlugins": {"paige@paige-dev": false, "other@x": true}}`)
	if out, _, _ := runPaige(t, vars, "", "doctor"); !strings.HasPrefix(lineOf(out, "claude hooks"), "✗") {
		t.Errorf("a disabled plugin counts as installed:\n%s", out)
	}
	writeFile(t, settings, `{"enabledPlugins": {"paige@paige-dev": true}}`)
	if out, _, _ := runPaige(t, vars, "", "doctor"); !strings.Contains(lineOf(out, "claude hooks"), "plugin paige@paige-dev enabled") ||
		!strings.HasPrefix(lineOf(out, "claude mcp"), "✓") {
		t.Errorf("marketplace plugin not seen:\n%s", out)
	}
}

// TestServeHealthReportsDataDirID: the real server's /health carries the
// id of its DATA_DIR, never the path.
func TestServeHealthReportsDataDirID(t *testing.T) {
	s := startServe(t, serveEnv(t))
	code, body := s.health(t)
	if code != 200 || body["dataDirId"] != hook.DataDirID(s.data) {
		t.Errorf("health %d %v, want dataDirId %s", code, body, hook.DataDirID(s.data))
	}
	for _, v := range body {
		if str, ok := v.(string); ok && strings.Contains(str, "/") {
			t.Errorf("health discloses a path: %v", body)
		}
	}
}
