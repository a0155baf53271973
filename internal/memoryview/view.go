package memoryview

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/seed"
)

// View reads the three stores and returns what matches query (every word of
// it, case-insensitively, in an item's content, evidence, entities, type,
// source, session, tags or project; an empty query matches everything).
// A seed that does not exist yet has no proposals; a seed with invalid
// values is read as far as valid and the problem is reported in
// SeedWarnings (the page never writes it).
func (s *Service) View(ctx context.Context, query string) (View, error) {
	query = strings.TrimSpace(query)
	if err := checkText("query", query, MaxQuery, true); err != nil {
		return View{}, err
	}
	words := strings.Fields(strings.ToLower(query))
	v := View{Query: query, Entries: []Entry{}, Proposals: []Proposal{}, Memories: []Memory{}}
	all, err := s.Knowledge.Entries()
	if err != nil {
		return v, fmt.Errorf("read knowledge: %w", err)
	}
	records, err := learnseed.OpenLedger(s.Knowledge.Dir()).Records()
	if err != nil {
		return v, fmt.Errorf("read the proposals ledger: %w", err)
	}
	sd, warnings := s.readSeed()
	v.SeedWarnings = warnings
	byEntry, byProposal := links(records, sd)
	for _, e := range all {
		if e.Forgotten {
			v.Forgotten++
		}
		if !e.Active() || !matches(words, e.Content, e.Evidence, strings.Join(e.Entities, " "), string(e.Type), e.Source) {
			continue
		}
		v.Entries = append(v.Entries, Entry{Entry: e, Proposal: byEntry[e.ID]})
	}
	sort.SliceStable(v.Entries, func(i, j int) bool {
		a, b := v.Entries[i], v.Entries[j]
		if a.Pinned != b.Pinned {
			return a.Pinned
		}
		return a.ExtractedAt > b.ExtractedAt
	})
	for _, p := range sd.State.Proposals {
		if matches(words, p.Content, p.Type, p.Source, p.Status) {
			v.Proposals = append(v.Proposals, Proposal{Proposal: p, EntryID: byProposal[p.ID], Session: strings.TrimPrefix(p.Source, "session:")})
		}
	}
	sortProposals(v.Proposals)
	v.Memories, v.MemoryStatus, err = s.memories(ctx, words)
	v.Entries, v.More.Entries = capped(v.Entries)
	v.Proposals, v.More.Proposals = capped(v.Proposals)
	v.Memories, v.More.Memories = capped(v.Memories)
	return v, err
}

// capped keeps the first MaxListed items and counts the rest.
func capped[T any](xs []T) ([]T, int) {
	if len(xs) <= MaxListed {
		return xs, 0
	}
	return xs[:MaxListed], len(xs) - MaxListed
}

func (s *Service) readSeed() (*seed.Seed, []string) {
	sd, problems, err := seed.ReadOnly(s.SeedPath)
	switch {
	case errors.Is(err, seed.ErrNoSeed):
		return seed.Defaults(), nil
	case err != nil:
		return seed.Defaults(), []string{err.Error()}
	case len(problems) > 0:
		return sd, []string{seed.InvalidValuesWarning(s.SeedPath, len(problems))}
	}
	return sd, nil
}

// links maps entries to the proposals made from them (with the seed's
// current status) and proposals back to their entries, from the ledger.
func links(records []learnseed.Record, sd *seed.Seed) (map[string]*ProposalRef, map[string]string) {
	status := map[string]string{}
	for _, p := range sd.State.Proposals {
		status[p.ID] = p.Status
	}
	byEntry, byProposal := map[string]*ProposalRef{}, map[string]string{}
	for _, r := range learnseed.Latest(records) {
		st := status[r.ProposalID]
		if st == "" { // cleaned out of the seed: the ledger knows
			st = r.Status
		}
		byEntry[r.EntryID] = &ProposalRef{ID: r.ProposalID, Status: st}
		byProposal[r.ProposalID] = r.EntryID
	}
	return byEntry, byProposal
}

func sortProposals(ps []Proposal) {
	when := func(p Proposal) string {
		if p.DecidedAt != "" {
			return p.DecidedAt
		}
		return p.ExtractedAt
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Status == seed.StatusPending, ps[j].Status == seed.StatusPending
		if a != b {
			return a
		}
		return when(ps[i]) > when(ps[j])
	})
}

func (s *Service) memories(ctx context.Context, words []string) ([]Memory, string, error) {
	out := []Memory{}
	if s.Memory == nil {
		return out, "off", nil
	}
	ed, ok := s.Memory.(memory.Editor)
	if !ok {
		return out, "read-only", nil
	}
	rs, err := ed.ListMemories(ctx, "")
	if err != nil {
		return out, "editable", fmt.Errorf("read memories: %w", err)
	}
	for _, r := range rs {
		m := r.Metadata
		if matches(words, r.Content, m.Tags, m.SessionID, m.Project, m.Importance) {
			out = append(out, Memory{ID: r.ID, Content: r.Content, Metadata: m, ThisProject: s.Project != "" && m.Project == s.Project})
		}
	}
	return out, "editable", nil
}

// matches reports whether every word occurs in one of the fields.
func matches(words []string, fields ...string) bool {
	if len(words) == 0 {
		return true
	}
	hay := strings.ToLower(strings.Join(fields, "\n"))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// checkText validates a text field: valid UTF-8, at most limit bytes, and
// not blank unless blankOK.
func checkText(field, s string, limit int, blankOK bool) error {
	switch {
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, field)
	case len(s) > limit:
		return fmt.Errorf("%w: %s is %d bytes, the limit is %d", ErrInvalid, field, len(s), limit)
	case !blankOK && strings.TrimSpace(s) == "":
		return fmt.Errorf("%w: %s is empty", ErrInvalid, field)
	}
	return nil
}

// knowledgeErr maps the knowledge store's errors to the service's.
func knowledgeErr(id string, err error) error {
	switch {
	case errors.Is(err, knowledge.ErrNotFound):
		return fmt.Errorf("%w: no learned entry %q", ErrNotFound, id)
	case errors.Is(err, knowledge.ErrInactive):
		return fmt.Errorf("%w: entry %s is forgotten or superseded", ErrConflict, id)
	case errors.Is(err, knowledge.ErrInvalid):
		return fmt.Errorf("%w: the entry's content is empty once secrets are redacted", ErrInvalid)
	}
	return err
}
