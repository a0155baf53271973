package trail

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

// FuzzSplitCommand: any command line splits and classifies without
// panicking, never into an empty command, and never keeps a leading
// environment assignment.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"go test ./...", "cd a && FOO=bar timeout 5 pnpm test 2>&1 | tail", "echo 'x", "a\\\nb",
		"x # c", "make test -j4 >out", "uv run pytest -k 'a or b' -- -x", "cd ../x; (y)", "& ; | && || ;;", "2>&1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, s := range splitCommand(line) {
			if len(s.Args) == 0 {
				t.Fatalf("empty segment from %q", line)
			}
			if isAssignment(s.Args[0]) {
				t.Fatalf("assignment kept from %q: %q", line, s.Args)
			}
			if cmd, ok := classify(s.Args); ok && (cmd.Canonical == "" || labels[cmd.Cat] == "") {
				t.Fatalf("classified %q as %+v", s.Args, cmd)
			}
		}
	})
}

// FuzzMine: any transcript bytes read and mine without panicking into
// valid candidates, and merge into valid entries.
func FuzzMine(f *testing.F) {
	f.Add(trailtest.New("s", "/w").Bash("go test ./...", "ok", 0).Edit("/w/a.go").Bash("npm test", "x", 1).String())
	f.Add(`{"type":"assistant","cwd":"/w","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"cargo test"}}]}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`)
	f.Add("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"mcp__\",\"input\":1}]}}\nnot json\n")
	f.Fuzz(func(t *testing.T, data string) {
		turns, _, err := transcript.Read(strings.NewReader(data), nil)
		if err != nil {
			return
		}
		cs := Mine(turns)
		for _, c := range cs {
			if c.Content == "" || c.Key == "" || c.Runs < 1 || !c.Type.Valid() {
				t.Fatalf("invalid candidate %+v", c)
			}
		}
		for _, e := range Merge(nil, cs, func(cwd string) string { return cwd }, "session:f", "now") {
			if e.Observed == nil || e.Confidence < 0.5 || e.Confidence > 0.95 {
				t.Fatalf("invalid entry %+v", e)
			}
		}
	})
}
