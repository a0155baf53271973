package claudecode

import (
	"encoding/json"
	"strings"
	"testing"
)

func bashInput(tb testing.TB, cmd string) json.RawMessage {
	tb.Helper()
	b, err := json.Marshal(map[string]string{"command": cmd, "description": "x"})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestDecideReadOnlyTools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool  string
		input string
		deny  bool
	}{
		{"Write", `{"file_path":"/p/a.go","content":"x"}`, true},
		{"Edit", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, true},
		{"MultiEdit", `{"file_path":"/p/a.go","edits":[]}`, true},
		{"NotebookEdit", `{"notebook_path":"/p/a.ipynb"}`, true},
		{"Read", `{"file_path":"/p/a.go"}`, false},
		{"Grep", `{"pattern":">"}`, false},
		{"Glob", `{"pattern":"**/*.go"}`, false},
		{"WebFetch", `{"url":"https://x"}`, false},
		{"mcp__paige__paige_open_file", `{"path":"a.go"}`, false},
		{"Task", `{"prompt":"rm -rf /"}`, false},
		{"write", `{}`, false}, // tool names are case-sensitive in Claude Code
		{"Bash", `not json`, false},
		{"Bash", `{"command":""}`, false},
		{"Bash", `{"command":42}`, false},
		{"Bash", `null`, false},
		{"", ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			got := DecideReadOnly(tt.tool, json.RawMessage(tt.input))
			if got.Deny != tt.deny {
				t.Fatalf("deny: got %v, want %v (reason %q)", got.Deny, tt.deny, got.Reason)
			}
			if got.Deny && !strings.Contains(got.Reason, tt.tool) {
				t.Errorf("reason %q does not name the tool %s", got.Reason, tt.tool)
			}
			if !got.Deny && got.Reason != "" {
				t.Errorf("allowed with a reason %q", got.Reason)
			}
		})
	}
}
