package seed

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxContextChars is Claude Code's cap on hook output; every rendered context
// stays within it.
const MaxContextChars = 10000

// SetupMessage is the whole context while the seed still needs setup.
const SetupMessage = "PAI seed not configured. Run setup to initialize."

// ErrorPrefix starts the single line [SessionStartHook] returns on failure.
const ErrorPrefix = "PAI session context error: "

// Context formats.
const (
	LayoutFull    = "full"
	LayoutCompact = "compact"
)

// ContextOptions choose the layout and the size budget of a session context.
// A zero value means the full format within [MaxContextChars].
type ContextOptions struct {
	// Format is LayoutFull (default) or LayoutCompact.
	Format string
	// MaxChars bounds the context in characters. If zero, MaxContextChars.
	MaxChars int
	// Project is the identity (internal/project) of the session's project.
	// If set, the pending proposals listed are that project's and those of
	// no project, the project's first; see [ProposalsFor].
	Project string
}

// SessionContext is the result of [GenerateSessionContext]: OK with Context,
// or not OK with Error. Config is nil when NeedsSetup.
type SessionContext struct {
	Context       string   `json:"context,omitempty"`
	NeedsSetup    bool     `json:"needsSetup"`
	Config        *Seed    `json:"config,omitempty"`
	ProposalCount int      `json:"proposalCount"`
	Warnings      []string `json:"warnings,omitempty"`
	// Problems are the seed's invalid values (see [ReadOnly]); the file
	// was not changed.
	Problems []Problem `json:"problems,omitempty"`
}

// RenderContext renders s in the chosen format. Sections are separated by one
// blank line (the "Seed: vX" line is a section of its own) and empty sections
// are left out. When the result would exceed the budget, long sections shrink
// step by step (fewer items, each list ending in "... and N more", long text
// clipped with "...") so every section header survives.
func RenderContext(s *Seed, o ContextOptions) string {
	budget := o.MaxChars
	if budget <= 0 {
		budget = MaxContextChars
	}
	render := formatFull
	if o.Format == LayoutCompact {
		render = formatCompact
	}
	if o.Project != "" {
		c := *s
		c.State.Proposals = ProposalsFor(s.State.Proposals, o.Project)
		s = &c
	}
	var out string
	for _, lim := range shrinkSteps {
		out = render(s, lim)
		if utf8.RuneCountInString(out) <= budget {
			return out
		}
	}
	return hardCut(out, budget)
}

// hardCut keeps the first budget characters, ending with a marker.
func hardCut(s string, budget int) string {
	const marker = "\n... (truncated)"
	keep := budget - len(marker)
	if keep < 0 {
		keep = 0
	}
	r := []rune(s)
	if len(r) <= budget {
		return s
	}
	return string(r[:keep]) + marker
}

// GenerateSessionContext reads the seed at path without writing anything
// (see [ReadOnly]) and renders it. A missing seed, or one whose identity is
// still the default, gives the setup message with NeedsSetup. A seed with
// invalid values is presented with every valid part, its context starting
// with the one-line [InvalidValuesWarning] and a blank line; Problems lists
// them. A seed that cannot be read or parsed is an error whose message says
// the file was left untouched.
func GenerateSessionContext(path string, o ContextOptions) (SessionContext, error) {
	s, problems, err := ReadOnly(path)
	if errors.Is(err, ErrNoSeed) {
		return SessionContext{Context: SetupMessage, NeedsSetup: true}, nil
	}
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) && (le.Code == CodeParse || le.Code == CodeValidation) {
			return SessionContext{}, fmt.Errorf("%s; %s", le.Message, unreadableHint(path))
		}
		return SessionContext{}, err
	}
	warning := ""
	if len(problems) > 0 {
		warning = InvalidValuesWarning(filepath.Base(path), len(problems))
	}
	if s.Identity.PrincipalName == DefaultPrincipalName && !hasProblemAt(problems, "$.identity.principalName") {
		return SessionContext{Context: withWarning(warning, SetupMessage), NeedsSetup: true, Problems: problems, Warnings: unknownKeyWarnings(s)}, nil
	}
	if warning != "" {
		budget := o.MaxChars
		if budget <= 0 {
			budget = MaxContextChars
		}
		o.MaxChars = max(budget-utf8.RuneCountInString(warning)-2, 0)
	}
	return SessionContext{
		Context:       withWarning(warning, RenderContext(s, o)),
		Config:        s,
		ProposalCount: len(pending(ProposalsFor(s.State.Proposals, o.Project))),
		Problems:      problems,
		Warnings:      unknownKeyWarnings(s),
	}, nil
}

func withWarning(warning, context string) string {
	if warning == "" {
		return context
	}
	return warning + "\n\n" + context
}

func hasProblemAt(problems []Problem, path string) bool {
	for _, p := range problems {
		if p.Path == path {
			return true
		}
	}
	return false
}

// HookText returns what the hook prints for [GenerateSessionContext]'s
// answer: the context, or for an error one human-readable line starting
// with [ErrorPrefix].
func HookText(sc SessionContext, err error) string {
	if err == nil {
		return sc.Context
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	return clip(ErrorPrefix+msg, MaxContextChars)
}

// SessionStartHook returns the text a SessionStart hook prints for the seed
// at path: the context, the setup message, or an error line. It never fails
// and never writes.
func SessionStartHook(path string, o ContextOptions) string {
	return HookText(GenerateSessionContext(path, o))
}

// ProposalsFor returns the proposals that concern project, best first:
// those learned in project, then those of no project (what holds
// everywhere); each group by confidence, then the most recent first.
// Proposals of other projects are left out. An empty project keeps them all,
// in the same order. ps is not changed.
func ProposalsFor(ps []Proposal, project string) []Proposal {
	out := make([]Proposal, 0, len(ps))
	for _, p := range ps {
		if project == "" || p.Project == "" || p.Project == project {
			out = append(out, p)
		}
	}
	conf := func(p Proposal) float64 {
		if p.Confidence == nil {
			return 0
		}
		return *p.Confidence
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ah, bh := a.Project != "" && a.Project == project, b.Project != "" && b.Project == project; ah != bh {
			return ah
		}
		if conf(a) != conf(b) {
			return conf(a) > conf(b)
		}
		return a.ExtractedAt > b.ExtractedAt
	})
	return out
}
