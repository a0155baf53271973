package seed

import (
	"fmt"
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
}

// SessionContext is the result of [GenerateSessionContext]: OK with Context,
// or not OK with Error. Config is nil when NeedsSetup.
type SessionContext struct {
	OK            bool     `json:"ok"`
	Context       string   `json:"context,omitempty"`
	NeedsSetup    bool     `json:"needsSetup"`
	Config        *Seed    `json:"config,omitempty"`
	ProposalCount int      `json:"proposalCount"`
	Error         string   `json:"error,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
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

// GenerateSessionContext loads the seed at path with git (see [LoadWithGit])
// and renders it: the setup message with NeedsSetup when the identity is
// still the default one, an error result when the seed cannot be loaded.
// It never panics.
func GenerateSessionContext(path string, o ContextOptions, opts *Options) (sc SessionContext) {
	defer func() {
		if r := recover(); r != nil {
			sc = SessionContext{Error: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	res := LoadWithGit(path, opts)
	if !res.OK {
		return SessionContext{Error: res.Error.Message, Warnings: res.Warnings}
	}
	if res.Config.Identity.PrincipalName == DefaultPrincipalName {
		return SessionContext{OK: true, Context: SetupMessage, NeedsSetup: true, Warnings: res.Warnings}
	}
	return SessionContext{
		OK:            true,
		Context:       RenderContext(res.Config, o),
		Config:        res.Config,
		ProposalCount: len(pending(res.Config.State.Proposals)),
		Warnings:      res.Warnings,
	}
}

// HookText returns what the hook prints for sc: the context, or one
// human-readable error line starting with [ErrorPrefix].
func HookText(sc SessionContext) string {
	if sc.OK {
		return sc.Context
	}
	msg := strings.Join(strings.Fields(sc.Error), " ")
	return clip(ErrorPrefix+msg, MaxContextChars)
}

// SessionStartHook returns the text a SessionStart hook prints for the seed
// at path: the context, the setup message, or an error line. It never fails
// and never panics.
func SessionStartHook(path string, o ContextOptions, opts *Options) string {
	return HookText(GenerateSessionContext(path, o, opts))
}
