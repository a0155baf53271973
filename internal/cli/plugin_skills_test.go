package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/claudecode"
)

// frontmatter splits a Markdown file into its YAML frontmatter's top-level
// "key: value" pairs and its body; ok is false without a frontmatter.
func frontmatter(text string) (fields map[string]string, body string, ok bool) {
	rest, found := strings.CutPrefix(text, "---\n")
	if !found {
		return nil, text, false
	}
	head, body, found := strings.Cut(rest, "\n---\n")
	if !found {
		return nil, text, false
	}
	fields = map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, found := strings.Cut(line, ":")
		if !found || strings.HasPrefix(line, " ") {
			continue
		}
		fields[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"`)
	}
	return fields, body, true
}

// pluginMarkdown returns the plugin's skills (by directory name) and output styles.
func pluginMarkdown(tb testing.TB) (skills, styles map[string]string) {
	tb.Helper()
	skills, styles = map[string]string{}, map[string]string{}
	dirs, err := os.ReadDir(filepath.Join(pluginDir, "skills"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(pluginDir, "skills", d.Name(), "SKILL.md"))
		if err != nil {
			tb.Fatalf("skill %s: %v", d.Name(), err)
		}
		skills[d.Name()] = string(b)
	}
	files, _ := filepath.Glob(filepath.Join(pluginDir, "output-styles", "*.md"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		styles[filepath.Base(f)] = string(b)
	}
	return skills, styles
}

// TestPluginSkills checks the coaching skills and the output style: a
// frontmatter with the directory's name and a description, the read-only
// rule stated in each, the four coaching steps present, and every Paige
// tool and /paige: skill they name existing (the tools as listed by a
// running paige serve).
func TestPluginSkills(t *testing.T) {
	skills, styles := pluginMarkdown(t)
	for _, want := range []string{"coach", "hint", "review", "finish"} {
		if _, ok := skills[want]; !ok {
			t.Errorf("no skills/%s/SKILL.md", want)
		}
	}
	if len(styles) == 0 {
		t.Error("no output style")
	}
	tools := serverTools(t)
	toolRE, skillRE := regexp.MustCompile(`\bpaige_[a-z_]+\b`), regexp.MustCompile(`/paige:([a-z-]+)`)
	check := func(file, text string, wantName string) {
		fields, body, ok := frontmatter(text)
		switch {
		case !ok:
			t.Errorf("%s: no frontmatter", file)
			return
		case wantName != "" && fields["name"] != wantName:
			t.Errorf("%s: name %q, want %q", file, fields["name"], wantName)
		case fields["description"] == "" || fields["name"] == "":
			t.Errorf("%s: name or description missing: %v", file, fields)
		}
		if !regexp.MustCompile(`(?i)(never|do not|don't|won't) (write|fix)`).MatchString(body) {
			t.Errorf("%s does not state the read-only rule", file)
		}
		for _, allowed := range strings.Split(fields["allowed-tools"], ",") {
			allowed = strings.TrimSpace(allowed)
			if base, _, _ := strings.Cut(allowed, "("); allowed != "" && !strings.HasPrefix(allowed, "mcp__") && !claudeCodeTools[base] {
				t.Errorf("%s allows %s, which is not a Claude Code tool", file, allowed)
			}
			if cmd, ok := strings.CutPrefix(allowed, "Bash("); ok {
				cmd = strings.TrimSuffix(strings.TrimSuffix(cmd, ")"), ":*")
				if d := claudecode.DecideReadOnly("Bash", bashCommand(t, cmd+" x")); d.Deny {
					t.Errorf("%s allows %s, which the read-only guard denies: %s", file, allowed, d.Reason)
				}
			}
			for _, prefix := range []string{"mcp__plugin_paige_paige__", "mcp__paige__"} {
				if tool, ok := strings.CutPrefix(allowed, prefix); ok && !tools[tool] {
					t.Errorf("%s allows %s, which paige serve does not offer", file, allowed)
				}
			}
		}
		if m := regexp.MustCompile(`\b(Grep|Glob|LS|MultiEdit)\b`).FindString(body); m != "" {
			t.Errorf("%s names %s, which current Claude Code does not have", file, m)
		}
		for _, tool := range toolRE.FindAllString(body, -1) {
			if !tools[tool] {
				t.Errorf("%s names %s, which paige serve does not offer", file, tool)
			}
		}
		for _, m := range skillRE.FindAllStringSubmatch(body, -1) {
			if _, ok := skills[m[1]]; !ok {
				t.Errorf("%s names /paige:%s, which is not a skill", file, m[1])
			}
		}
	}
	for name, text := range skills {
		check("skills/"+name+"/SKILL.md", text, name)
	}
	for name, text := range styles {
		check("output-styles/"+name, text, "")
	}
	for _, step := range []string{"paige_start_session", "paige_run_coaching_pipeline", "paige_highlight_lines", "$ARGUMENTS"} {
		if !strings.Contains(skills["coach"], step) {
			t.Errorf("the coach skill does not mention %s", step)
		}
	}
	if !strings.Contains(skills["review"], "paige_update_phase") || !strings.Contains(skills["finish"], "paige_end_session") ||
		!strings.Contains(skills["hint"], "paige_get_session_state") {
		t.Error("review, finish or hint lost its tool")
	}
}

// claudeCodeTools are the tools Claude Code 2.1.331 offers (its first
// Messages API request with `claude -p`), which skills may allow by name.
var claudeCodeTools = map[string]bool{"Agent": true, "Bash": true, "Edit": true, "Read": true, "Skill": true,
	"Write": true, "WebFetch": true, "WebSearch": true, "TodoWrite": true, "NotebookEdit": true}

func bashCommand(tb testing.TB, cmd string) []byte {
	tb.Helper()
	b, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// serverTools lists the MCP tools of a running offline paige serve.
func serverTools(tb testing.TB) map[string]bool {
	tb.Helper()
	s := startServe(tb, serveEnv(tb))
	res, err := s.mcpClient(tb).ListTools(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]bool{}
	var names []string
	for _, tool := range res.Tools {
		out[tool.Name] = true
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	tb.Logf("tools: %v", names)
	return out
}

func TestFrontmatter(t *testing.T) {
	f, body, ok := frontmatter("---\nname: coach\ndescription: \"Start\"\nx:\n  - y\n---\n# Body\n")
	if !ok || f["name"] != "coach" || f["description"] != "Start" || body != "# Body\n" {
		t.Errorf("got %v %q %v", f, body, ok)
	}
	if _, _, ok := frontmatter("# no frontmatter\n"); ok {
		t.Error("accepted a file without frontmatter")
	}
	if _, _, ok := frontmatter("---\nname: x\n"); ok {
		t.Error("accepted an unterminated frontmatter")
	}
}
