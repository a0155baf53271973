// Package trail learns from behaviour: it mines the tool trail of Claude
// Code sessions (the commands the agent ran and what came of them, the MCP
// servers it used, the manifests it read, the team's own tools, commits a
// pre-commit hook stopped) for procedures ("tests: go test ./...") and
// facts ("package manager: pnpm", "team tool: bd"). Which files were
// edited is no knowledge: an edit only ends a "failed, then fixed" pair. It is a pure core: it takes
// turns already read by internal/learn/transcript and returns candidates;
// it does no I/O. Resolving a candidate's directory to a project and
// merging candidates into a store belong to the caller ([Merge] does the
// merge on plain values).
//
// What counts (docs/learn.md, "Learned from behaviour"):
//   - only commands that ran and succeeded; rejected, interrupted and
//     unanswered calls count for nothing, failed ones only as "failed, then
//     fixed by" another command of the same kind;
//   - commands are normalised before they are compared: cd prefixes,
//     environment assignments (never kept: they may hold secrets), timeout
//     and other wrappers, redirections and output filters (| tail, | head,
//     | grep) are removed; verbosity, colour, repetition and test-selection
//     flags (-v, -count=1, -run X, -k X) and the files, names and packages a
//     test run selects are dropped (go's packages become ./...); flags that
//     change what runs (-race, -tags x, --release) stay;
//   - a piped command's exit status is its filter's, so its output must
//     also carry no failure marker (FAIL, error:, panic:, Traceback…);
//   - only known toolchains are recognised (go, cargo, mix, npm/pnpm/yarn/
//     bun, npx, Python tools and uv/poetry/pip, bundler/rails, make/just,
//     Docker Compose, Gradle/Maven, ./scripts); anything else is ignored.
package trail

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// Outcome is what became of a tool call.
type Outcome int

// Outcomes of a call.
const (
	Unknown   Outcome = iota // no result seen
	Succeeded                // a result without error
	Failed                   // an error result (a non-zero exit for Bash)
	Rejected                 // the user rejected or interrupted the call
)

// Call is one tool call of a session with its outcome. Command is set for
// Bash calls, File for file tools; Output is the start of the result.
type Call struct {
	Tool    string
	Command string
	File    string
	Cwd     string
	Outcome Outcome
	Output  string
}

// Calls returns the tool calls of turns in transcript order, each paired
// with its result (matched by tool use id within the assistant turn).
func Calls(turns []learn.Turn) []Call {
	var out []Call
	for _, t := range turns {
		if t.Role != learn.Assistant {
			continue
		}
		for _, u := range t.ToolUse {
			c := Call{Tool: u.Name, Cwd: t.Cwd}
			in := gjson.Parse(u.Input)
			switch u.Name {
			case "Bash":
				c.Command = in.Get("command").String()
			default:
				c.File = in.Get("file_path").String()
				if c.File == "" {
					c.File = in.Get("notebook_path").String()
				}
			}
			c.Outcome, c.Output = result(t.ToolResults, u.ID)
			out = append(out, c)
		}
	}
	return out
}

func result(rs []learn.ToolResult, id string) (Outcome, string) {
	for _, r := range rs {
		if r.ToolUseID != id || id == "" {
			continue
		}
		switch {
		case strings.HasPrefix(r.Content, "The user doesn't want to proceed"),
			strings.Contains(r.Content, "[Request interrupted by user"),
			strings.HasPrefix(r.Content, "Permission to use") && strings.Contains(r.Content, "denied"),
			r.IsError && strings.TrimSpace(r.Content) == "": // the reader strips the interruption marker; a failure says "Exit code N"
			return Rejected, r.Content
		case r.IsError:
			return Failed, r.Content
		}
		return Succeeded, r.Content
	}
	return Unknown, ""
}

// Candidate is one procedure or fact seen in a session: Key identifies it
// within its project (Cwd, to be resolved to a project by the caller), Runs
// is how often it was seen.
type Candidate struct {
	Type     learn.KnowledgeType
	Key      string
	Content  string
	Cwd      string
	Runs     int
	Entities []string
	// Final is set on the last successful test, lint or check command of
	// the session (per directory): the run that showed the work was done.
	Final bool
}

// failure marks in the output of a piped command (whose exit status is the
// filter's).
var failure = regexp.MustCompile(`\bFAIL(ED|URE)?\b|\b[Ee]rror(\[E\d+\])?:|\bpanic:|Traceback \(most recent|command not found|No such file or directory|npm ERR!|ERR_PNPM|\*\* \(\w+Error\)`)

// Mine returns the candidates of one session's turns; see [MineCalls].
func Mine(turns []learn.Turn) []Candidate { return MineCalls(Calls(turns)) }

// MineCalls returns the procedures and facts shown by one session's calls,
// in the order first seen, each with its number of runs.
func MineCalls(calls []Call) []Candidate {
	m := newMiner()
	for _, c := range calls {
		switch {
		case c.Tool == "Bash":
			m.bash(c)
		case isEdit(c.Tool):
			m.edit(c)
			m.manifest(c)
		case c.Tool == "Read":
			m.manifest(c)
		case strings.HasPrefix(c.Tool, "mcp__"):
			m.mcp(c)
		}
	}
	for _, i := range m.final {
		m.out[i].Final = true
	}
	m.teamFacts()
	return m.out
}

func isEdit(tool string) bool {
	return tool == "Edit" || tool == "MultiEdit" || tool == "Write" || tool == "NotebookEdit"
}

type failedCmd struct{ canonical, output string }

type miner struct {
	out       []Candidate
	index     map[string]int       // cwd + key → position in out
	pending   map[string]failedCmd // cwd + category → the last failure not yet fixed
	final     map[string]int       // cwd + category + dir → the last successful verification
	teams     map[string]*teamUse  // cwd + program → its successful calls
	teamOrder []string
	hooked    map[string]*hookFix // cwd → a commit a pre-commit hook stopped
}

func newMiner() *miner {
	return &miner{index: map[string]int{}, pending: map[string]failedCmd{}, final: map[string]int{},
		teams: map[string]*teamUse{}, hooked: map[string]*hookFix{}}
}

// verifies are the categories whose last green run in a session shows the
// way the work is checked.
var verifies = map[Category]bool{Test: true, Lint: true, Check: true}

func (m *miner) add(c Candidate) {
	k := c.Cwd + "\x00" + c.Key
	if i, ok := m.index[k]; ok {
		m.out[i].Runs++
		return
	}
	c.Runs = 1
	m.index[k] = len(m.out)
	m.out = append(m.out, c)
}

func (m *miner) bash(c Call) {
	if c.Outcome == Unknown || c.Outcome == Rejected {
		return
	}
	segs := splitCommand(c.Command)
	background := strings.HasPrefix(c.Output, "Command running in background")
	for _, s := range segs {
		if dir, ok := localDir(c.Cwd, s.Dir); ok {
			s.Dir = dir
		} else {
			continue // run in another directory: maybe another project
		}
		if rel, ok := relative(c.Cwd, s.Args[0]); ok && strings.HasPrefix(s.Args[0], "/") {
			s.Args = append([]string{"./" + rel}, s.Args[1:]...) // a script of the project, named absolutely
		}
		if len(segs) == 1 {
			m.commit(c, s.Args)
		}
		cmd, ok := classify(s.Args)
		if !ok && c.Outcome == Succeeded && !background {
			m.team(c.Cwd, s.Args)
		}
		if !ok || background && cmd.Cat != Run {
			continue
		}
		failed := c.Outcome == Failed || s.Piped && failure.MatchString(c.Output)
		pk := c.Cwd + "\x00" + string(cmd.Cat) + "\x00" + s.Dir
		if failed {
			if len(segs) == 1 { // which part of a compound command failed is unknown
				m.pending[pk] = failedCmd{cmd.Canonical, firstLine(c.Output)}
			}
			continue
		}
		m.afterHook(c.Cwd, s.Dir, cmd)
		if f, ok := m.pending[pk]; ok {
			delete(m.pending, pk)
			if isFix(f.canonical, cmd.Canonical) {
				m.add(fixCandidate(c.Cwd, s.Dir, cmd, f))
			}
		}
		m.add(procedure(c.Cwd, s.Dir, cmd))
		if verifies[cmd.Cat] {
			m.final[pk] = m.index[c.Cwd+"\x00"+procedure(c.Cwd, s.Dir, cmd).Key]
		}
		for _, f := range cmd.Facts {
			m.add(Candidate{Type: learn.Fact, Key: "fact:" + f, Content: f, Cwd: c.Cwd, Entities: []string{factValue(f)}})
		}
	}
}

func procedure(cwd, dir string, cmd command) Candidate {
	label := labels[cmd.Cat]
	if dir != "" {
		label += " (in " + dir + ")"
	}
	return Candidate{Type: learn.Procedure, Key: "procedure:" + string(cmd.Cat) + ":" + dir + ":" + cmd.Canonical,
		Content: label + ": " + cmd.Canonical, Cwd: cwd, Entities: []string{strings.Fields(cmd.Canonical)[0], string(cmd.Cat)}}
}

func fixCandidate(cwd, dir string, cmd command, f failedCmd) Candidate {
	label := labels[cmd.Cat]
	if dir != "" {
		label += " (in " + dir + ")"
	}
	why := ""
	if f.output != "" {
		why = " (" + f.output + ")"
	}
	return Candidate{Type: learn.Procedure, Key: "fix:" + string(cmd.Cat) + ":" + dir + ":" + f.canonical + "=>" + cmd.Canonical,
		Content: label + ": use `" + cmd.Canonical + "`, not `" + f.canonical + "`, which failed" + why,
		Cwd:     cwd, Entities: []string{strings.Fields(cmd.Canonical)[0], strings.Fields(f.canonical)[0]}}
}

// firstLine is the first informative line of a failure's output, short.
func firstLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Exit code") {
			continue
		}
		if r := []rune(l); len(r) > 80 {
			l = string(r[:80]) + "…"
		}
		return l
	}
	return ""
}

func factValue(f string) string {
	_, v, _ := strings.Cut(f, ": ")
	return v
}

func (m *miner) edit(c Call) {
	if c.Outcome != Succeeded || c.File == "" {
		return
	}
	for k := range m.pending { // the code changed: a later success is no fix by command
		if strings.HasPrefix(k, c.Cwd+"\x00") {
			delete(m.pending, k)
		}
	}
}

// relative returns file relative to cwd when it lies inside it (and not
// in Claude's own .claude directory).
func relative(cwd, file string) (string, bool) {
	if !strings.HasPrefix(file, "/") {
		file = strings.TrimPrefix(file, "./")
	} else {
		if cwd == "" || !strings.HasPrefix(file, strings.TrimSuffix(cwd, "/")+"/") {
			return "", false
		}
		file = file[len(strings.TrimSuffix(cwd, "/"))+1:]
	}
	if file == "" || strings.HasPrefix(file, "..") || strings.HasPrefix(file, ".claude/") || strings.Contains(file, "/.claude/") {
		return "", false
	}
	return file, true
}

func (m *miner) mcp(c Call) {
	if c.Outcome != Succeeded {
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(c.Tool, "mcp__"), "__", 2)
	if len(parts) != 2 || parts[0] == "" || parts[0] == "paige" || parts[0] == "plugin_paige_paige" { // Paige itself is no fact about the user
		return
	}
	f := "MCP server used: " + parts[0]
	m.add(Candidate{Type: learn.Fact, Key: "fact:" + f, Content: f, Cwd: c.Cwd, Entities: []string{parts[0]}})
}

// manifests are files whose presence at the project's root shows its
// language or package manager.
var manifests = map[string][]string{
	"go.mod": {"language: Go"}, "Cargo.toml": {"language: Rust"}, "mix.exs": {"language: Elixir"},
	"pyproject.toml": {"language: Python"}, "Gemfile": {"language: Ruby"},
	"pnpm-lock.yaml": {"package manager: pnpm"}, "yarn.lock": {"package manager: yarn"},
	"package-lock.json": {"package manager: npm"}, "bun.lockb": {"package manager: bun"}, "bun.lock": {"package manager: bun"},
	"uv.lock": {"package manager: uv"}, "poetry.lock": {"package manager: poetry"},
}

// manifest adds the facts shown by a root manifest the session read or
// wrote successfully.
func (m *miner) manifest(c Call) {
	if c.Outcome != Succeeded {
		return
	}
	rel, ok := relative(c.Cwd, c.File)
	if !ok || strings.Contains(rel, "/") {
		return
	}
	for _, f := range manifests[rel] {
		m.add(Candidate{Type: learn.Fact, Key: "fact:" + f, Content: f, Cwd: c.Cwd, Entities: []string{factValue(f)}})
	}
}

// localDir returns the directory a command ran in relative to cwd ("" for
// cwd itself); ok is false when it lies outside cwd or cannot be known.
func localDir(cwd, dir string) (string, bool) {
	if dir == "" || !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
		return dir, !strings.HasPrefix(dir, "..")
	}
	if c := strings.TrimSuffix(cwd, "/"); cwd != "" && strings.TrimSuffix(dir, "/") == c {
		return "", true
	}
	rel, ok := relative(cwd, dir)
	return strings.TrimSuffix(rel, "/"), ok
}

// isFix reports whether fixed runs what failed another way: the two
// differ in their tool (the first two words) and share a word naming what
// runs. "uv run pytest" fixes "python -m pytest" and "pnpm test" fixes
// "npm test"; "mix format" after "mix format --check-formatted" fixed the
// code, not the command; "go vet" after a missing golangci-lint is another
// tool, not a fix.
func isFix(failed, fixed string) bool {
	a, b := strings.Fields(failed), strings.Fields(fixed)
	if strings.Join(a[:min(2, len(a))], " ") == strings.Join(b[:min(2, len(b))], " ") {
		return false
	}
	for _, w := range a {
		if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "/.") && !runners[w] && slices.Contains(b, w) {
			return true
		}
	}
	return false
}

// runners are words that say how, not what, a command runs.
var runners = map[string]bool{"run": true, "exec": true, "x": true, "-m": true, "dlx": true}
