// Package learncontext assembles the system prompt of a learn chat, and
// the context a session gets, from preprompts (kept in SQLite, see
// [Preprompts]) and the knowledge store.
//
// # Sections
//
//   - CONSTRAINTS: hard_rule preprompts, then learned rules.
//   - IDENTITY: core and persona preprompts.
//   - PROCEDURES: learned procedures.
//   - LEARNED KNOWLEDGE: domain preprompts, then learned preferences,
//     corrections, decisions and facts.
//
// # Ranking and budget
//
// Only active, established entries take part ([learn.Entry.Established]:
// a command run once or a file-edit count never does); for a [Scope] with
// a project, only that project's entries and those holding everywhere, and
// none that is stale ([Stale]: its script, target or file is gone from
// the repository). The token budget (about four characters a token) is a
// hard cap on the whole prompt. Items are taken whole, in priority order,
// until the next one does not fit: entries the user pinned (always first),
// hard_rule preprompts, core and persona preprompts, learned rules,
// procedures, domain preprompts, other knowledge. Learned entries are
// ranked: rules and procedures, then preferences, corrections and
// decisions, then facts; confirmed before unconfirmed, recent before old,
// more confident first. Each item is short and names its source. What is
// left out is counted per section in [Metadata.LeftOut] and named in a
// last line of the prompt (room for it is kept within the budget); the
// [Assembled.Receipt] says, for every entry considered, where it went, why
// and at what token cost, or why it was left out.
package learncontext

import (
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
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
	// Receipt is every active entry considered: the ones taken first, in
	// the order they were taken, then the ones left out, each with why.
	Receipt []ReceiptItem `json:"receipt,omitempty"`
}

// Assemble builds the prompt from the active preprompts and the active,
// established entries (inactive ones of either are ignored) within
// tokenBudget tokens (0 means DefaultTokenBudget), for no project in
// particular. It is a pure function.
func Assemble(prompts []Preprompt, entries []learn.Entry, tokenBudget int) Assembled {
	return AssembleFor(prompts, entries, tokenBudget, Scope{})
}

// AssembleFor is [Assemble] for scope: only the entries of its project
// (and those that hold everywhere) that are not stale. The result's
// Receipt lists every active entry considered: what went in, where, why
// and at what token cost, and why each other one was left out. It is a
// pure function.
func AssembleFor(prompts []Preprompt, entries []learn.Entry, tokenBudget int, scope Scope) Assembled {
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
	known, receipt := rank(entries, scope)

	pinned, known := splitPinned(known)
	rules := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Rule })
	procs := ofType(known, func(t learn.KnowledgeType) bool { return t == learn.Procedure })
	facts := ofType(known, func(t learn.KnowledgeType) bool { return t != learn.Rule && t != learn.Procedure })

	domain := contents(active, Domain)
	all := scope.Project == ""                           // entries of every project: each names its own
	groups := append(pinnedGroups(pinned, all), []group{ // in priority order, after the pinned entries
		{section: "CONSTRAINTS", items: contents(active, HardRule)},
		{section: "IDENTITY", items: append(contents(active, Core), contents(active, Persona)...)},
		entryGroup("CONSTRAINTS", rules, all),
		entryGroup("PROCEDURES", procs, all),
		{section: "LEARNED KNOWLEDGE", items: domain},
		entryGroup("LEARNED KNOWLEDGE", facts, all),
	}...)
	sections, prompt, left, in := fill(groups, tokenBudget*CharsPerToken)
	for _, g := range groups {
		for k, id := range g.ids {
			it := ReceiptItem{ID: id, Section: g.section, Text: g.items[k], Why: g.whys[k], Tokens: tokens(g.items[k])}
			if !in[id] {
				it.LeftOut = "budget"
			}
			receipt = append(receipt, it)
		}
	}
	sort.SliceStable(receipt, func(i, j int) bool { return receipt[i].LeftOut == "" && receipt[j].LeftOut != "" })
	nRules := len(rules) + countType(pinned, learn.Rule)
	return Assembled{
		SystemPrompt: prompt,
		Sections:     sections,
		Receipt:      receipt,
		Metadata: Metadata{
			PrepromptsLoaded: len(active), KnowledgeEntries: len(known) + len(pinned), RulesCount: nRules,
			EstimatedTokens: tokens(prompt), Truncated: len(left) > 0, LeftOut: left,
		},
	}
}

// tokens estimates the tokens of s.
func tokens(s string) int { return (len(s) + CharsPerToken - 1) / CharsPerToken }

// entryGroup is the ranked entries es as the items of one section, each
// naming its project when withProject is set.
func entryGroup(section string, es []rankedEntry, withProject bool) group {
	g := group{section: section}
	for _, e := range es {
		g.items = append(g.items, "- "+ItemText(e.Entry, withProject))
		g.ids = append(g.ids, e.ID)
		g.whys = append(g.whys, e.why)
	}
	return g
}

func ofType(es []rankedEntry, keep func(learn.KnowledgeType) bool) []rankedEntry {
	var out []rankedEntry
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

// splitPinned returns the pinned entries and the others, each in es's order.
func splitPinned(es []rankedEntry) (pinned, rest []rankedEntry) {
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
func pinnedGroups(pinned []rankedEntry, withProject bool) []group {
	var gs []group
	for _, e := range pinned {
		section := "LEARNED KNOWLEDGE"
		switch e.Type {
		case learn.Rule:
			section = "CONSTRAINTS"
		case learn.Procedure:
			section = "PROCEDURES"
		}
		gs = append(gs, entryGroup(section, []rankedEntry{e}, withProject))
	}
	return gs
}

func countType(es []rankedEntry, t learn.KnowledgeType) int {
	n := 0
	for _, e := range es {
		if e.Type == t {
			n++
		}
	}
	return n
}
