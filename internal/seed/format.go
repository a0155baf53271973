package seed

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// limits bound how much of each context section is shown. A negative count
// means all; text 0 means free text is not clipped.
type limits struct {
	items     int // confirmed learnings listed per category (at least 1)
	proposals int // pending proposals listed
	projects  int // active projects listed
	text      int // runes of any free-text value
}

// fullLimits are the plan's formats: 5 learnings per category, everything else
// in full.
var fullLimits = limits{items: 5, proposals: -1, projects: -1}

// shrinkSteps are tried in order until the context fits its budget.
var shrinkSteps = []limits{
	fullLimits,
	{items: 5, proposals: 20, projects: 20, text: 200},
	{items: 3, proposals: 10, projects: 10, text: 120},
	{items: 2, proposals: 5, projects: 5, text: 80},
	{items: 1, proposals: 3, projects: 3, text: 60},
	{items: 1, proposals: 1, projects: 1, text: 40},
}

func (l limits) clip(s string) string { return clip(s, l.text) }

// take returns how many of n entries to show under limit max.
func take(n, max int) int {
	if max < 0 || n < max {
		return n
	}
	return max
}

func more(n int) string { return fmt.Sprintf("... and %d more", n) }

// writeList writes header, then the first take(len(items), limit) items,
// each on its own line indented by two spaces and written by line (i is
// its index), then "... and N more" on a last line for those left out.
func writeList[T any](b *strings.Builder, header string, items []T, limit int, line func(b *strings.Builder, i int, item T)) {
	b.WriteString(header)
	n := take(len(items), limit)
	for i, item := range items[:n] {
		b.WriteString("\n  ")
		line(b, i, item)
	}
	if rest := len(items) - n; rest > 0 {
		b.WriteString("\n  " + more(rest))
	}
}

// FormatIdentitySummary renders the identity block:
//
//	Identity: Ivy (working with Jens-Christian)
//	Catchphrase: "Ivy here, ready to go."
//	Style: adaptive | Timezone: Europe/Zurich | Locale: en-US
func FormatIdentitySummary(id Identity) string { return formatIdentity(id, fullLimits) }

func formatIdentity(id Identity, l limits) string {
	p := id.Preferences
	return fmt.Sprintf("Identity: %s (working with %s)\nCatchphrase: \"%s\"\nStyle: %s | Timezone: %s | Locale: %s",
		l.clip(id.AIName), l.clip(id.PrincipalName), l.clip(id.Catchphrase),
		l.clip(p.ResponseStyle), l.clip(p.Timezone), l.clip(p.Locale))
}

// FormatLearningSummary renders "Learnings: N patterns, N insights, N
// self-knowledge" followed, per category with confirmed items, by a "Recent
// …:" header and up to 5 confirmed items (newest confirmation first) as
// "  - content", then "  ... and N more" when more are confirmed. Unconfirmed
// items are counted but not listed. It returns "" when all categories are
// empty.
func FormatLearningSummary(l Learned) string { return formatLearnings(l, fullLimits) }

func formatLearnings(l Learned, lim limits) string {
	np, ni, ns := len(l.Patterns), len(l.Insights), len(l.SelfKnowledge)
	if np+ni+ns == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Learnings: %d pattern%s, %d insight%s, %d self-knowledge", np, plural(np), ni, plural(ni), ns)
	for _, cat := range []struct {
		name  string
		items []Learning
	}{{"patterns", l.Patterns}, {"insights", l.Insights}, {"self-knowledge", l.SelfKnowledge}} {
		confirmed := recentConfirmed(cat.items)
		if len(confirmed) == 0 {
			continue
		}
		writeList(&b, "\nRecent "+cat.name+":", confirmed, max(lim.items, 1), func(b *strings.Builder, _ int, item Learning) {
			b.WriteString("- " + lim.clip(item.Content))
		})
	}
	return b.String()
}

// recentConfirmed returns the confirmed items, newest confirmation first
// (file order among equal or missing times).
func recentConfirmed(items []Learning) []Learning {
	var out []Learning
	for _, it := range items {
		if it.Confirmed {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return confirmedTime(out[i]).After(confirmedTime(out[j]))
	})
	return out
}

func confirmedTime(l Learning) time.Time {
	t, err := time.Parse(time.RFC3339Nano, l.ConfirmedAt)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, l.ExtractedAt)
	}
	return t
}

// FormatProposals renders the pending proposals as "Pending proposals (N):"
// and numbered lines `  1. [type] "content" (from source)`. Accepted and
// rejected proposals are left out; it returns "" when none is pending.
func FormatProposals(ps []Proposal) string { return formatProposals(ps, fullLimits) }

func pending(ps []Proposal) []Proposal {
	var out []Proposal
	for _, p := range ps {
		if p.Status == StatusPending {
			out = append(out, p)
		}
	}
	return out
}

func formatProposals(ps []Proposal, lim limits) string {
	return pendingList(ps, lim, func(b *strings.Builder, i int, p Proposal) {
		fmt.Fprintf(b, "%d. [%s] \"%s\" (from %s)", i+1, p.Type, lim.clip(p.Content), lim.clip(p.Source))
	})
}

// pendingList renders the pending proposals of ps as "Pending proposals
// (N):" and, for at most lim.proposals of them, a line that line writes;
// it returns "" when none is pending.
func pendingList(ps []Proposal, lim limits, line func(b *strings.Builder, i int, p Proposal)) string {
	pend := pending(ps)
	if len(pend) == 0 {
		return ""
	}
	var b strings.Builder
	writeList(&b, fmt.Sprintf("Pending proposals (%d):", len(pend)), pend, lim.proposals, line)
	return b.String()
}

// FormatSessionState renders "Last session: <lastSessionAt|never>",
// "Active projects: <a, b|none>" and, when set, "Checkpoint: <ref>".
func FormatSessionState(st State) string { return formatState(st, fullLimits) }

func formatState(st State, lim limits) string {
	last := st.LastSessionAt
	if last == "" {
		last = "never"
	}
	projects := "none"
	if len(st.ActiveProjects) > 0 {
		n := take(len(st.ActiveProjects), lim.projects)
		shown := make([]string, 0, n+1)
		for _, p := range st.ActiveProjects[:n] {
			shown = append(shown, lim.clip(p))
		}
		if rest := len(st.ActiveProjects) - n; rest > 0 {
			shown = append(shown, more(rest))
		}
		projects = strings.Join(shown, ", ")
	}
	out := "Last session: " + lim.clip(last) + "\nActive projects: " + projects
	if st.CheckpointRef != "" {
		out += "\nCheckpoint: " + lim.clip(st.CheckpointRef)
	}
	return out
}

// joinSections joins the non-empty sections with one blank line between.
func joinSections(sections ...string) string {
	var kept []string
	for _, s := range sections {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n\n")
}

func formatFull(s *Seed, lim limits) string {
	return joinSections(
		"Seed: v"+lim.clip(s.Version),
		formatIdentity(s.Identity, lim),
		formatLearnings(s.Learned, lim),
		formatProposals(s.State.Proposals, lim),
		formatState(s.State, lim),
	)
}
