package seed

import (
	"fmt"
	"sort"
	"strings"
)

// ReviewHint ends the compact proposals section.
const ReviewHint = "Review: paige seed proposals review (or accept|reject <id>)"

// compactRecent is how many recent learnings the compact format lists.
const compactRecent = 5

// CompactContentWidth is where the compact format cuts proposal content
// (followed by " ...").
const CompactContentWidth = 40

// FormatCompact renders the compact SessionStart layout:
//
//	Seed: v1.0.0 | Ivy (working with Jens-Christian) | Style: adaptive
//
//	Recent learnings (4 confirmed):
//	  - [pattern] Prefers TypeScript over Python for all projects
//
//	Pending proposals (1):
//	  prop_  pattern         Prefers Chart.js over D3 for data visual ...  N/A
//	Review: paige seed proposals review (or accept|reject <id>)
//
//	Last session: 2026-01-30T18:45:00Z | Active projects: pai-seed, reporter
//
// Proposal lines carry the first 5 characters of the id, the type padded to
// 14, the content cut at 40 characters plus " ...", and the confidence with
// two decimals or N/A. Empty sections are left out.
func FormatCompact(s *Seed) string { return formatCompact(s, fullLimits) }

func formatCompact(s *Seed, lim limits) string {
	id := s.Identity
	head := fmt.Sprintf("Seed: v%s | %s (working with %s) | Style: %s",
		lim.clip(s.Version), lim.clip(id.AIName), lim.clip(id.PrincipalName), lim.clip(id.Preferences.ResponseStyle))
	st := formatState(s.State, lim)
	st = strings.Replace(st, "\nActive projects:", " | Active projects:", 1)
	st = strings.Replace(st, "\nCheckpoint:", " | Checkpoint:", 1)
	return joinSections(head, compactLearnings(s.Learned, lim), compactProposals(s.State.Proposals, lim), st)
}

type typedLearning struct {
	typ string
	Learning
}

func compactLearnings(l Learned, lim limits) string {
	var all []typedLearning
	for _, c := range []struct {
		typ   string
		items []Learning
	}{{TypePattern, l.Patterns}, {TypeInsight, l.Insights}, {TypeSelfKnowledge, l.SelfKnowledge}} {
		for _, it := range c.items {
			if it.Confirmed {
				all = append(all, typedLearning{c.typ, it})
			}
		}
	}
	if len(all) == 0 {
		return ""
	}
	sort.SliceStable(all, func(i, j int) bool {
		return confirmedTime(all[i].Learning).After(confirmedTime(all[j].Learning))
	})
	var b strings.Builder
	writeList(&b, fmt.Sprintf("Recent learnings (%d confirmed):", len(all)), all, min(compactRecent, max(lim.items, 1)), func(b *strings.Builder, _ int, it typedLearning) {
		fmt.Fprintf(b, "- [%s] %s", it.typ, lim.clip(it.Content))
	})
	return b.String()
}

func compactProposals(ps []Proposal, lim limits) string {
	list := pendingList(ps, lim, func(b *strings.Builder, _ int, p Proposal) {
		conf := "N/A"
		if p.Confidence != nil {
			conf = fmt.Sprintf("%.2f", *p.Confidence)
		}
		fmt.Fprintf(b, "%-5s  %-14s  %-44s  %s", firstRunes(p.ID, 5), p.Type, cutContent(p.Content), conf)
	})
	if list == "" {
		return ""
	}
	return list + "\n" + ReviewHint
}

// cutContent keeps the first CompactContentWidth characters of s (newlines
// flattened), appending " ..." when it cut.
func cutContent(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= CompactContentWidth {
		return s
	}
	return string(r[:CompactContentWidth]) + " ..."
}

// firstRunes returns at most the first n runes of s.
func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
