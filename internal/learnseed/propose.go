// Package learnseed is where learn meets seed: knowledge extracted from a Claude
// Code transcript becomes proposals in the personal seed, and the user's
// accept/reject decisions flow back into a ledger kept beside the knowledge
// store, so a rejected item is never proposed again.
//
// # Mapping
//
//   - preference, rule, procedure, decision → pattern (how the user works)
//   - fact, correction → insight; a correction is proposed as the corrected
//     statement ("Correction: use pnpm" → "Use pnpm")
//   - an entry about the assistant (it names Claude, the assistant or the
//     AI) → self_knowledge, whatever its type
//
// Each proposal carries the entry's confidence, a source "session:<id>" and
// the extraction method (regex for the heuristic extractor, acr for models).
//
// # Duplicates
//
// A candidate is dropped when it duplicates a seed learning, a pending or
// rejected proposal, an item the ledger records as rejected, or an earlier
// candidate — by the knowledge store's rule ([knowledge.IsDuplicate]: same
// type, a shared entity, word Jaccard above 0.6), with seed items' entities
// taken from their content by [extract.Entities] — or when its normalised
// content equals one of them (the seed's own rule).
//
// The pure core ([ProposalFor], [Candidates]) does no I/O; [Run] reads and
// writes the seed and the ledger.
package learnseed

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/seed"
)

// aboutAssistant matches content whose subject is the assistant.
var aboutAssistant = regexp.MustCompile(`(?i)\b(claude|the assistant|assistant's|the ai|ai assistant|the agent)\b`)

// correctionLead is what extractors put before a corrected statement.
var correctionLead = regexp.MustCompile(`(?i)^\s*(correction\s*:\s*|actually,?\s+|no,\s+)+`)

// SeedType returns the seed proposal type for a knowledge entry.
func SeedType(e learn.Entry) string {
	if aboutAssistant.MatchString(e.Content) || hasAssistantEntity(e.Entities) {
		return seed.TypeSelfKnowledge
	}
	switch e.Type {
	case learn.Fact, learn.Correction:
		return seed.TypeInsight
	}
	return seed.TypePattern
}

func hasAssistantEntity(ents []string) bool {
	for _, x := range ents {
		switch strings.ToLower(x) {
		case "claude", "assistant", "ai", "claude code":
			return true
		}
	}
	return false
}

// Content returns what the proposal says: the entry's content, a correction
// reduced to its corrected statement.
func Content(e learn.Entry) string {
	c := strings.TrimSpace(e.Content)
	if e.Type == learn.Correction {
		if rest := strings.TrimSpace(correctionLead.ReplaceAllString(c, "")); rest != "" {
			c = upperFirst(rest)
		}
	}
	return c
}

func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// Method returns the seed method for an extractor name: regex for the
// heuristic extractor, acr for a model.
func Method(extractorName string) string {
	if extractorName == "" || extractorName == "heuristic" {
		return seed.MethodRegex
	}
	return seed.MethodACR
}

// ProposalFor returns the seed proposal for e, with source
// "session:<sessionID>" (e.Source when sessionID is empty), or false when e
// is inactive or has no content.
func ProposalFor(e learn.Entry, sessionID, method string) (seed.Proposal, bool) {
	content := Content(e)
	if !e.Active() || content == "" {
		return seed.Proposal{}, false
	}
	src := e.Source
	if sessionID != "" {
		src = "session:" + sessionID
	}
	if src == "" {
		src = "session:unknown"
	}
	p := seed.Proposal{
		Type: SeedType(e), Content: content, Source: src,
		ExtractedAt: e.ExtractedAt, Method: method, Project: e.Project,
	}
	if e.Confidence > 0 {
		c := e.Confidence
		p.Confidence = &c
	}
	return p, true
}

// Known is what a candidate must not duplicate: items of the seed and the
// ledger's rejected items, as (seed type, content) pairs.
type Known struct {
	entries []learn.Entry
	norm    map[string]bool
}

// NewKnown collects the seed's learnings, its pending and rejected
// proposals, and the ledger's rejected items.
func NewKnown(s *seed.Seed, rejected []Record) *Known {
	k := &Known{norm: map[string]bool{}}
	for typ, cat := range map[string][]seed.Learning{
		seed.TypePattern: s.Learned.Patterns, seed.TypeInsight: s.Learned.Insights, seed.TypeSelfKnowledge: s.Learned.SelfKnowledge,
	} {
		for _, l := range cat {
			k.add(typ, l.Content)
		}
	}
	for _, p := range s.State.Proposals {
		if p.Status != seed.StatusAccepted {
			k.add(p.Type, p.Content)
		}
	}
	for _, r := range rejected {
		k.add(r.Type, r.Content)
	}
	return k
}

func (k *Known) add(typ, content string) {
	k.norm[seed.NormalizeContent(content)] = true
	k.entries = append(k.entries, learn.Entry{Type: learn.KnowledgeType(typ), Content: content, Entities: extract.Entities(content)})
}

// Has reports whether a proposal repeats something known.
func (k *Known) Has(p seed.Proposal) bool {
	if k.norm[seed.NormalizeContent(p.Content)] {
		return true
	}
	cand := learn.Entry{Type: learn.KnowledgeType(p.Type), Content: p.Content, Entities: extract.Entities(p.Content)}
	return knowledge.IsDuplicate(cand, k.entries)
}

// Candidate pairs a proposal with the knowledge entry it came from.
type Candidate struct {
	EntryID  string
	Proposal seed.Proposal
}

// Candidates maps entries to proposals, best first (rules and procedures,
// then preferences, corrections and decisions, then facts; more confident
// first), and drops the ones that duplicate known items or each other and
// the ones that are evidence only ([learn.Entry.Established]: a command
// run once, a file-edit count).
func Candidates(entries []learn.Entry, known *Known, sessionID, method string) []Candidate {
	entries = slices.Clone(entries)
	slices.SortStableFunc(entries, func(a, b learn.Entry) int {
		if c := cmp.Compare(a.Type.Tier(), b.Type.Tier()); c != 0 {
			return c
		}
		return cmp.Compare(b.Confidence, a.Confidence)
	})
	var out []Candidate
	for _, e := range entries {
		if !e.Established() {
			continue
		}
		p, ok := ProposalFor(e, sessionID, method)
		if !ok || known.Has(p) {
			continue
		}
		known.add(p.Type, p.Content)
		out = append(out, Candidate{EntryID: e.ID, Proposal: p})
	}
	return out
}
