package trail

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

func mine(t *testing.T, s *trailtest.Session) []Candidate {
	t.Helper()
	turns, _, err := transcript.Read(strings.NewReader(s.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	return Mine(turns)
}

func contents(cs []Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, string(c.Type)+" "+c.Content)
	}
	return out
}

// TestMineOutcomes: only what ran and succeeded is learned; rejected,
// failed and unanswered calls are not; a piped command whose output shows a
// failure failed; a background launch counts for servers only.
func TestMineOutcomes(t *testing.T) {
	s := trailtest.New("a", "/src/shop").
		Bash("mix test", "3 tests, 0 failures", 0).
		Bash("mix credo --strict", "found 2 issues", 1).
		Rejected("mix ecto.reset").
		Bash("mix compile 2>&1 | tail -5", "** (CompileError) lib/shop.ex:3: undefined function", 0).
		Bash("mix phx.server", "Command running in background with ID: b1. Output is being written to: /tmp/x", 0).
		Bash("mix test --cover", "Command running in background with ID: b2.", 0).
		Tool("Bash", map[string]any{"command": "mix format"}, "", false)
	s.Tool("Bash", map[string]any{"command": "pnpm test"}, "[Request interrupted by user for tool use]", true)
	s.Bash("pnpm test:unit", "ok", 0) // after an interruption: no "failed, then fixed"
	got := contents(mine(t, s))
	want := []string{"procedure tests: mix test", "fact language: Elixir", "procedure start the project: mix phx.server", "procedure format: mix format",
		"procedure tests: pnpm test:unit", "fact package manager: pnpm", "fact runtime: Node.js"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestMineFailedThenFixed: a failed command followed by a different command
// of the same kind that succeeds is learned as a fix; a failure fixed by
// editing code, or fixed by running the same command again, is not.
func TestMineFailedThenFixed(t *testing.T) {
	s := trailtest.New("a", "/src/tidy").
		Bash("python -m pytest", "/usr/bin/python: No module named pytest", 1).
		Bash("uv run pytest -q", "5 passed", 0).
		Bash("cargo test", "test result: FAILED. 1 failed", 101).
		Edit("/src/tidy/src/lib.rs").
		Bash("cargo nextest run", "PASS", 0).
		Bash("npm test", "npm ERR! missing script", 1).
		Bash("npm test", "ok", 0).
		Bash("mix format --check-formatted", "** (Mix) mix format failed due to --check-formatted.", 1).
		Bash("mix format", "", 0).
		Bash("golangci-lint run ./...", "golangci-lint: command not found", 127).
		Bash("go vet ./...", "", 0)
	got := contents(mine(t, s))
	want := []string{
		"procedure tests: use `uv run pytest`, not `python -m pytest`, which failed (/usr/bin/python: No module named pytest)",
		"procedure tests: uv run pytest", "fact package manager: uv", "fact language: Python",
		"procedure tests: cargo nextest run", "fact language: Rust",
		"procedure tests: npm test", "fact package manager: npm", "fact runtime: Node.js",
		"procedure format: mix format", "fact language: Elixir",
		"procedure lint: go vet ./...", "fact language: Go",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestMineRunsFilesMCPManifests: repeated runs are counted; edited files
// are no knowledge, however often they are edited; MCP servers
// used successfully (but Paige's own) and root manifests read are facts; files outside the
// cwd and Claude's own files are ignored; commands run in another
// directory are not this project's.
func TestMineRunsFilesMCPManifests(t *testing.T) {
	s := trailtest.New("a", "/src/app").
		Bash("go test ./...", "ok", 0).Bash("go test -count=1 ./internal/...", "ok", 0).
		Edit("/src/app/internal/a.go").Edit("/src/app/internal/a.go").Edit("internal/a.go").
		Edit("/src/app/b.go").Edit("/src/app/b.go").
		Edit("/etc/hosts").Edit("/etc/hosts").Edit("/etc/hosts").
		Edit("/src/app/.claude/plan.md").Edit("/src/app/.claude/plan.md").Edit("/src/app/.claude/plan.md").
		Read("/src/app/go.mod").Read("/src/app/sub/package.json").
		Tool("mcp__github__get_issue", map[string]any{"n": 1}, "{}", false).
		Tool("mcp__linear__list", map[string]any{}, "error", true).
		Tool("mcp__plugin_paige_paige__paige_get_buffer", map[string]any{}, "{}", false).
		Tool("mcp__paige__paige_get_diff", map[string]any{}, "{}", false).
		Bash("cd /src/other && make test", "ok", 0)
	cs := mine(t, s)
	got := map[string]int{}
	for _, c := range cs {
		got[c.Content] = c.Runs
		if c.Cwd != "/src/app" {
			t.Errorf("cwd of %q = %q", c.Content, c.Cwd)
		}
	}
	want := map[string]int{"tests: go test ./...": 2, "language: Go": 3, "MCP server used: github": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCalls pairs each call with its result and keeps the cwd.
func TestCalls(t *testing.T) {
	turns := []learn.Turn{{Role: learn.Assistant, Cwd: "/w", ToolUse: []learn.ToolUse{
		{ID: "1", Name: "Bash", Input: `{"command":"go build"}`}, {ID: "2", Name: "Read", Input: `{"file_path":"/w/x"}`},
		{ID: "3", Name: "Bash", Input: `{"command":"ls"}`}, {Name: "Bash", Input: `not json`}},
		ToolResults: []learn.ToolResult{{ToolUseID: "2", Content: "x"}, {ToolUseID: "1", Content: "Exit code 2", IsError: true}}}}
	want := []Call{{Tool: "Bash", Command: "go build", Cwd: "/w", Outcome: Failed, Output: "Exit code 2"},
		{Tool: "Read", File: "/w/x", Cwd: "/w", Outcome: Succeeded, Output: "x"},
		{Tool: "Bash", Command: "ls", Cwd: "/w"}, {Tool: "Bash", Cwd: "/w"}}
	if diff := cmp.Diff(want, Calls(turns)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFinalGreenRun: the last successful test, lint or check command of a
// session is its final green run; a build or a one-off run is not, and
// neither is an earlier test command.
func TestFinalGreenRun(t *testing.T) {
	s := trailtest.New("a", "/src/app").
		Bash("mix test test/a_test.exs", "1 test, 1 failure", 2).
		Bash("mix compile --force", "Compiling 3 files", 0).
		Bash("mix run -e 'IO.puts 1'", "1", 0).
		Bash("mix test --failed", "2 tests, 0 failures", 0).
		Bash("mix credo --strict", "no issues", 0).
		Bash("mix test", "5 tests, 0 failures", 0)
	final := map[string]bool{}
	for _, c := range mine(t, s) {
		final[c.Content] = c.Final
	}
	want := map[string]bool{"build: mix compile --force": false,
		"tests: mix test --failed": false, "lint: mix credo --strict": true, "tests: mix test": true}
	for k, v := range want {
		if got, ok := final[k]; !ok || got != v {
			t.Errorf("%q: final %v (mined: %v), want %v", k, got, ok, v)
		}
	}
}

// TestTeamToolsAndHooks: a program the team uses (bd) run in two calls is
// a fact, once is not, a common one (git, ls) never; a library's mix task
// is a procedure; a commit a pre-commit hook stopped teaches what to run
// before committing.
func TestTeamToolsAndHooks(t *testing.T) {
	s := trailtest.New("a", "/src/app").
		Bash("bd ready", "3 issues ready", 0).Bash("git status", "clean", 0).Bash("git status", "clean", 0).
		Bash("bd close app-12", "closed", 0).Bash("vendortool sync", "ok", 0).
		Bash("mix ash.codegen add_user_roles", "Generated migration", 0).
		Bash("git commit -m 'x'", "mix format --check-formatted....Failed\n- hook id: mix-format\npre-commit hook failed", 1).
		Bash("mix format", "", 0).
		Bash("git commit -m 'x'", "[main 1a2b3c] x", 0)
	got := map[string]bool{}
	for _, c := range mine(t, s) {
		got[c.Content] = true
	}
	for _, want := range []string{"team tool: bd (close, ready)", "project task: mix ash.codegen",
		"before committing (the pre-commit hook checks it): mix format"} {
		if !got[want] {
			t.Errorf("missing %q in %v", want, got)
		}
	}
	for c := range got {
		if strings.Contains(c, "git") || strings.Contains(c, "vendortool") {
			t.Errorf("learned %q", c)
		}
	}
}
