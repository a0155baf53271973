// Package contextasm assembles the system prompt of a learn chat from
// preprompts (kept in SQLite, see [Preprompts]) and the knowledge store.
//
// # Sections
//
//   - CONSTRAINTS: hard_rule preprompts, then learned rules. Never
//     truncated, whatever the budget.
//   - IDENTITY: core and persona preprompts. Never truncated.
//   - LEARNED KNOWLEDGE: domain preprompts, then learned preferences, facts,
//     decisions and corrections by descending confidence. Truncatable.
//   - PROCEDURES: learned procedures. Truncatable.
//
// Truncatable sections fill what is left of the token budget (about four
// characters a token) in that order, cut at whole lines, never mid-item.
package contextasm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// DefaultTokenBudget is the prompt budget when none is given (the plan's).
const DefaultTokenBudget = 4000

// CharsPerToken is the estimate used to turn the budget into characters.
const CharsPerToken = 4

// Preprompt types.
const (
	Core     = "core"
	Persona  = "persona"
	HardRule = "hard_rule"
	Domain   = "domain"
)

// Preprompt is a curated piece of the system prompt.
type Preprompt struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Type      string `json:"type"` // core, persona, hard_rule or domain
	Content   string `json:"content"`
	Priority  int    `json:"priority"` // lower comes first
	Active    bool   `json:"active"`
	CreatedAt string `json:"createdAt"`
}

// Section is one part of the assembled prompt.
type Section struct {
	Name        string `json:"name"`
	Content     string `json:"content"`
	Priority    int    `json:"priority"`
	Truncatable bool   `json:"truncatable"`
}

// Metadata describes what went into a prompt.
type Metadata struct {
	PrepromptsLoaded int  `json:"prepromptsLoaded"`
	KnowledgeEntries int  `json:"knowledgeEntries"`
	RulesCount       int  `json:"rulesCount"`
	EstimatedTokens  int  `json:"estimatedTokens"`
	Truncated        bool `json:"truncated"`
}

// Assembled is the result of [Assemble].
type Assembled struct {
	SystemPrompt string    `json:"systemPrompt"`
	Sections     []Section `json:"sections"`
	Metadata     Metadata  `json:"metadata"`
}

// Assemble builds the prompt from the active preprompts and the active
// entries (inactive ones of either are ignored) within tokenBudget tokens
// (0 means DefaultTokenBudget). It is a pure function.
func Assemble(prompts []Preprompt, entries []learn.Entry, tokenBudget int) Assembled {
	if tokenBudget <= 0 {
		tokenBudget = DefaultTokenBudget
	}
	var active []Preprompt
	for _, p := range prompts {
		if p.Active {
			active = append(active, p)
		}
	}
	sort.SliceStable(active, func(i, j int) bool { return active[i].Priority < active[j].Priority })
	known := knowledge.ActiveOnly(entries)
	sort.SliceStable(known, func(i, j int) bool { return known[i].Confidence > known[j].Confidence })

	rules := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Rule })
	procs := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Procedure })
	facts := ofType(known, func(t learn.KnowledgeType) bool { return t != learn.Rule && t != learn.Procedure })

	var sections []Section
	add := func(name string, prio int, trunc bool, lines []string) {
		if len(lines) > 0 {
			sections = append(sections, Section{Name: name, Content: strings.Join(lines, "\n"), Priority: prio, Truncatable: trunc})
		}
	}
	add("CONSTRAINTS", 0, false, append(contents(active, HardRule), items(rules)...))
	add("IDENTITY", 1, false, append(contents(active, Core), contents(active, Persona)...))
	add("LEARNED KNOWLEDGE", 2, true, append(contents(active, Domain), items(facts)...))
	add("PROCEDURES", 3, true, items(procs))

	prompt, truncated := Build(sections, tokenBudget)
	return Assembled{
		SystemPrompt: prompt,
		Sections:     sections,
		Metadata: Metadata{
			PrepromptsLoaded: len(active), KnowledgeEntries: len(known), RulesCount: len(rules),
			EstimatedTokens: (len(prompt) + CharsPerToken - 1) / CharsPerToken, Truncated: truncated,
		},
	}
}

func ofType(es []learn.Entry, keep func(learn.KnowledgeType) bool) []learn.Entry {
	var out []learn.Entry
	for _, e := range es {
		if keep(e.Type) {
			out = append(out, e)
		}
	}
	return out
}

func contents(ps []Preprompt, typ string) []string {
	var out []string
	for _, p := range ps {
		if p.Type == typ && strings.TrimSpace(p.Content) != "" {
			out = append(out, strings.TrimSpace(p.Content))
		}
	}
	return out
}

func items(es []learn.Entry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, "- "+strings.ReplaceAll(strings.TrimSpace(e.Content), "\n", "\n  "))
	}
	return out
}

// Build joins sections into "## NAME\ncontent" blocks: untruncatable ones
// first and whole, then truncatable ones by priority while the budget
// lasts, the last cut at a line boundary and marked "...". It reports
// whether anything was cut.
func Build(sections []Section, tokenBudget int) (string, bool) {
	remaining := tokenBudget * CharsPerToken
	var b strings.Builder
	ordered := append([]Section(nil), sections...)
	sort.SliceStable(ordered, func(i, j int) bool {
		if ordered[i].Truncatable != ordered[j].Truncatable {
			return !ordered[i].Truncatable
		}
		return ordered[i].Priority < ordered[j].Priority
	})
	truncated := false
	for _, s := range ordered {
		block := fmt.Sprintf("## %s\n%s\n\n", s.Name, s.Content)
		if !s.Truncatable || len(block) <= remaining {
			b.WriteString(block)
			remaining -= len(block)
			continue
		}
		truncated = true
		header := "## " + s.Name + "\n"
		room := remaining - len(header) - len("...\n\n")
		var kept []string
		used := 0
		for _, line := range strings.Split(s.Content, "\n") {
			if used+len(line)+1 > room {
				break
			}
			kept = append(kept, line)
			used += len(line) + 1
		}
		if len(kept) > 0 {
			b.WriteString(header + strings.Join(kept, "\n") + "\n...\n\n")
			remaining -= len(header) + used + len("...\n\n")
		}
		remaining = min(remaining, 0)
	}
	return strings.TrimSpace(b.String()), truncated
}
