package claudecode

import (
	"bytes"
	"strings"
	"testing"
)

// handFormatted are settings files as users write them: their own
// indentation, key order, number spellings and escapes. (Uninstall removes
// the events and the hooks object its removal leaves empty, so a user's own
// empty list for one of Paige's events does not come back; and hujson
// writes "\n" where it edits next to a "\r\n".)
var handFormatted = []string{
	userSettings,
	"{\n\t\"zeta\": 1.50e3,\n\t\"alpha\": \"\\u00e9\\/x\",\n\t\"hooks\": {\n\t\t\"Stop\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"say done\" } ] } ]\n\t}\n}\n",
	`{"b":2,"a":1,"mcpServers":{"z":{"command":"z"},"a":{"url":"http://x"}}}`,
	"{\n    \"permissions\" : { \"allow\" : [ ] } ,\n    \"hooks\" : { \"Stop\" : [ ] }\n}\n",
	"{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"./check.sh\"}\n        ]\n      }\n    ]\n  },\n  \"model\": \"sonnet\"\n}\n",
}

// Install then uninstall gives the user's file back byte for byte, for the
// hooks and the MCP entry; installing adds only Paige's text: the user's
// text is still there, in order.
func TestSettingsKeepUserBytes(t *testing.T) {
	t.Parallel()
	for _, in := range handFormatted {
		hooks, err := InstallHooks([]byte(in), bin)
		if err != nil {
			t.Fatalf("InstallHooks(%q): %v", in, err)
		}
		if !isSubsequence(in, string(hooks)) {
			t.Errorf("InstallHooks changed the user's text:\n%s\n=>\n%s", in, hooks)
		}
		if twice, _ := InstallHooks(hooks, bin); !bytes.Equal(twice, hooks) {
			t.Errorf("install twice differs:\n%s\n%s", hooks, twice)
		}
		back, changed, err := UninstallHooks(hooks)
		if err != nil || !changed || string(back) != in {
			t.Errorf("UninstallHooks: changed %v, err %v\n got %q\nwant %q", changed, err, back, in)
		}
		mcp, err := InstallMCP([]byte(in), MCPURL(3000))
		if err != nil {
			t.Fatalf("InstallMCP(%q): %v", in, err)
		}
		if !isSubsequence(in, string(mcp)) {
			t.Errorf("InstallMCP changed the user's text:\n%s\n=>\n%s", in, mcp)
		}
		back, changed, err = UninstallMCP(mcp)
		if err != nil || !changed || string(back) != in {
			t.Errorf("UninstallMCP: changed %v, err %v\n got %q\nwant %q", changed, err, back, in)
		}
	}
}

// isSubsequence reports whether every byte of a appears in b in order
// (b is a with insertions only).
func isSubsequence(a, b string) bool {
	for i := 0; i < len(a); i++ {
		j := strings.IndexByte(b, a[i])
		if j < 0 {
			return false
		}
		b = b[j+1:]
	}
	return true
}
