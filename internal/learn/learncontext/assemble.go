// Package learncontext assembles the system prompt of a learn chat from
// preprompts (kept in SQLite, see [Preprompts]) and the knowledge store.
//
// # Sections
//
//   - CONSTRAINTS: hard_rule preprompts, then learned rules.
//   - IDENTITY: core and persona preprompts.
//   - LEARNED KNOWLEDGE: domain preprompts, then learned preferences, facts,
//     decisions and corrections.
//   - PROCEDURES: learned procedures.
//
// # Budget
//
// The token budget (about four characters a token) is a hard cap on the
// whole prompt. Items are taken whole, in priority order, until the next
// one does not fit: entries the user pinned (always first), hard_rule preprompts, core and persona preprompts,
// learned rules, domain preprompts, other knowledge, procedures; learned
// entries of one kind by descending confidence, then most recent first.
// What is left out is counted per section in [Metadata.LeftOut] and named
// in a last line of the prompt (room for it is kept within the budget).
package learncontext

import (
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
	Truncatable bool   `json:"truncatable"` // always true: every section yields to the budget
}

// Metadata describes what went into a prompt.
type Metadata struct {
	PrepromptsLoaded int `json:"prepromptsLoaded"`
	KnowledgeEntries int `json:"knowledgeEntries"`
	RulesCount       int `json:"rulesCount"`
	EstimatedTokens  int `json:"estimatedTokens"`
	// Truncated reports whether anything was left out to fit the budget.
	Truncated bool `json:"truncated"`
	// LeftOut counts, per section, the items left out to fit the budget.
	LeftOut []LeftOut `json:"leftOut,omitempty"`
}

// LeftOut is how many items of a section did not fit the budget.
type LeftOut struct {
	Section string `json:"section"`
	Items   int    `json:"items"`
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
	sort.SliceStable(known, func(i, j int) bool {
		if known[i].Confidence != known[j].Confidence {
			return known[i].Confidence > known[j].Confidence
		}
		return known[i].ExtractedAt > known[j].ExtractedAt // RFC 3339: most recent first
	})

	pinned, known := splitPinned(known)
	rules := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Rule })
	procs := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Procedure })
	facts := ofType(known, func(t learn.KnowledgeType) bool { return t != learn.Rule && t != learn.Procedure })

	groups := append(pinnedGroups(pinned), []group{ // in priority order, after the pinned entries
		{"CONSTRAINTS", contents(active, HardRule)},
		{"IDENTITY", append(contents(active, Core), contents(active, Persona)...)},
		{"CONSTRAINTS", items(rules)},
		{"LEARNED KNOWLEDGE", append(contents(active, Domain), items(facts)...)},
		{"PROCEDURES", items(procs)},
	}...)
	sections, prompt, left := fill(groups, tokenBudget*CharsPerToken)
	return Assembled{
		SystemPrompt: prompt,
		Sections:     sections,
		Metadata: Metadata{
			PrepromptsLoaded: len(active), KnowledgeEntries: len(known) + len(pinned), RulesCount: len(rules) + countType(pinned, learn.Rule),
			EstimatedTokens: (len(prompt) + CharsPerToken - 1) / CharsPerToken, Truncated: len(left) > 0, LeftOut: left,
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
		out = append(out, "- "+strings.ReplaceAll(strings.TrimSpace(e.Content), "\n", "\n  ")+knowledge.ProjectSuffix(e))
	}
	return out
}

// splitPinned returns the pinned entries and the others, each in es's order.
func splitPinned(es []learn.Entry) (pinned, rest []learn.Entry) {
	for _, e := range es {
		if e.Pinned {
			pinned = append(pinned, e)
		} else {
			rest = append(rest, e)
		}
	}
	return pinned, rest
}

// pinnedGroups are the pinned entries, each in its own section, filled
// before everything else: a pinned entry is left out only when the pinned
// entries alone exceed the budget.
func pinnedGroups(pinned []learn.Entry) []group {
	var gs []group
	for _, e := range pinned {
		section := "LEARNED KNOWLEDGE"
		switch e.Type {
		case learn.Rule:
			section = "CONSTRAINTS"
		case learn.Procedure:
			section = "PROCEDURES"
		}
		gs = append(gs, group{section, items([]learn.Entry{e})})
	}
	return gs
}

func countType(es []learn.Entry, t learn.KnowledgeType) int {
	n := 0
	for _, e := range es {
		if e.Type == t {
			n++
		}
	}
	return n
}
