package claudecode

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const bin = "/usr/local/bin/paige"

// userSettings is a settings.json with keys and hooks Paige does not own.
const userSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh", "timeout": 3}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  },
  "env": {"FOO": "<bar & baz>"},
  "zzz": [1, 2.50, {"b": 1, "a": 2}]
}`

func decode(tb testing.TB, data []byte) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatalf("invalid JSON %s: %v", data, err)
	}
	return v
}

func TestInstallHooksEmpty(t *testing.T) {
	t.Parallel()
	got, err := InstallHooks(nil, bin)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/paige hook session-start --record-session",
            "timeout": 10
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/paige hook prompt-submit",
            "timeout": 5
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/paige hook session-end",
            "timeout": 5
          }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/paige hook pre-tool-use",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInstallUninstallHooksRoundTrip(t *testing.T) {
	t.Parallel()
	once, err := InstallHooks([]byte(userSettings), bin)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := InstallHooks(once, bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(once, twice) {
		t.Errorf("install twice differs from once:\n%s", cmp.Diff(string(once), string(twice)))
	}
	s := string(once)
	for _, k := range []string{`"model"`, `"permissions"`, `"hooks"`, `"env"`, `"zzz"`} {
		if !strings.Contains(s, k) {
			t.Errorf("installed settings lost %s", k)
		}
	}
	if i, j := strings.Index(s, `"model"`), strings.Index(s, `"zzz"`); i > j {
		t.Error("key order not kept")
	}
	if !strings.Contains(s, `"<bar & baz>"`) || !strings.Contains(s, "2.50") || !strings.Contains(s, `"b": 1,`) {
		t.Errorf("values re-encoded:\n%s", s)
	}
	if strings.Count(s, "audit.sh") != 1 || strings.Count(s, "pre-tool-use") != 1 {
		t.Errorf("user PreToolUse group not kept beside Paige's:\n%s", s)
	}

	back, changed, err := UninstallHooks(once)
	if err != nil || !changed {
		t.Fatalf("UninstallHooks: changed %v, err %v", changed, err)
	}
	if diff := cmp.Diff(decode(t, []byte(userSettings)), decode(t, back)); diff != "" {
		t.Errorf("uninstall did not restore the original (-want +got):\n%s", diff)
	}
	again, changed, err := UninstallHooks(back)
	if err != nil || changed || !bytes.Equal(again, back) {
		t.Errorf("second uninstall: changed %v, err %v", changed, err)
	}
}

func TestInstallHooksReplacesOldBinary(t *testing.T) {
	t.Parallel()
	old, _ := InstallHooks(nil, "/old/place/paige")
	got, err := InstallHooks(old, "/Users/me/My Tools/paige")
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "/old/place") {
		t.Errorf("old entries kept:\n%s", s)
	}
	if !strings.Contains(s, `"'/Users/me/My Tools/paige' hook session-end"`) {
		t.Errorf("binary path with a space not quoted:\n%s", s)
	}
	back, _, _ := UninstallHooks(got)
	if diff := cmp.Diff(map[string]any{}, decode(t, back)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUninstallKeepsUserHooksInSharedGroup(t *testing.T) {
	t.Parallel()
	in := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","command":"paige hook pre-tool-use"},
		{"type":"command","command":"./check.sh"},
		{"type":"command","command":"paige hook something-else"},
		{"type":"command","command":"notpaige hook pre-tool-use"}]}]}}`
	out, changed, err := UninstallHooks([]byte(in))
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	want := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","command":"./check.sh"},
		{"type":"command","command":"paige hook something-else"},
		{"type":"command","command":"notpaige hook pre-tool-use"}]}]}}`
	if diff := cmp.Diff(decode(t, []byte(want)), decode(t, out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSettingsErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{`, `[]`, `{"hooks": []}`, `{"hooks": {"SessionEnd": {}}}`, `{} {}`} {
		if _, err := InstallHooks([]byte(in), bin); err == nil {
			t.Errorf("InstallHooks(%s): no error", in)
		}
	}
	for _, in := range []string{`{"mcpServers": 3}`, `nope`} {
		if _, err := InstallMCP([]byte(in), MCPURL(3000)); err == nil {
			t.Errorf("InstallMCP(%s): no error", in)
		}
	}
}

func TestInstallUninstallMCP(t *testing.T) {
	t.Parallel()
	orig := `{"numStartups": 7, "mcpServers": {"other": {"command": "x"}}, "projects": {"/p": {}}}`
	got, err := InstallMCP([]byte(orig), MCPURL(4000))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"numStartups": 7, "mcpServers": {"other": {"command": "x"},
		"paige": {"type": "http", "url": "http://127.0.0.1:4000/mcp"}}, "projects": {"/p": {}}}`
	if diff := cmp.Diff(decode(t, []byte(want)), decode(t, got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	twice, _ := InstallMCP(got, MCPURL(4000))
	if !bytes.Equal(got, twice) {
		t.Error("install twice differs from once")
	}
	back, changed, err := UninstallMCP(got)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if diff := cmp.Diff(decode(t, []byte(orig)), decode(t, back)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	fresh, _ := InstallMCP(nil, MCPURL(3000))
	empty, _, _ := UninstallMCP(fresh)
	if diff := cmp.Diff(map[string]any{}, decode(t, empty)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzInstallHooks(f *testing.F) {
	f.Add([]byte(userSettings))
	f.Add([]byte(`{"hooks":{"X":[1,null,{"hooks":7}]}}`))
	f.Add([]byte(`[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := InstallHooks(data, bin)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON out: %s", out)
		}
		back, _, err := UninstallHooks(out)
		if err != nil {
			t.Fatalf("uninstall of an install failed: %v", err)
		}
		again, err := InstallHooks(back, bin)
		if err != nil {
			t.Fatalf("reinstall failed: %v", err)
		}
		if diff := cmp.Diff(decode(t, out), decode(t, again)); diff != "" {
			t.Fatalf("install after uninstall differs (-first +second):\n%s", diff)
		}
		if twice, _ := InstallHooks(out, bin); !bytes.Equal(twice, out) {
			t.Fatalf("install is not idempotent:\n%s\n%s", out, twice)
		}
	})
}

func TestPaigeEntriesFound(t *testing.T) {
	t.Parallel()
	s, _ := InstallHooks([]byte(userSettings), "/x y/paige")
	cmds, err := PaigeHookCommands(s)
	if err != nil {
		t.Fatal(err)
	}
	// file order: the user's PreToolUse event comes first
	want := []string{"'/x y/paige' hook pre-tool-use", "'/x y/paige' hook session-start --record-session",
		"'/x y/paige' hook prompt-submit", "'/x y/paige' hook session-end"}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := HookBinary(cmds[0]); got != "/x y/paige" {
		t.Errorf("HookBinary = %q", got)
	}
	if cmds, _ := PaigeHookCommands([]byte(userSettings)); len(cmds) != 0 {
		t.Errorf("found %v in settings without Paige", cmds)
	}
	m, _ := InstallMCP(nil, MCPURL(3001))
	if url, ok, err := PaigeMCPURL(m); !ok || err != nil || url != "http://127.0.0.1:3001/mcp" {
		t.Errorf("PaigeMCPURL = %q, %v, %v", url, ok, err)
	}
	if _, ok, _ := PaigeMCPURL([]byte(`{"mcpServers":{}}`)); ok {
		t.Error("found paige in empty mcpServers")
	}
}
