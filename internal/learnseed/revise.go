package learnseed

import (
	"fmt"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/seed"
)

// Revise brings the pending seed proposal made from the entry e (the
// ledger says which) up to date with e's content, after the user edited
// the entry: the proposal's text and seed type become e's, so accepting
// it commits what the user wrote, not the text it was proposed with. A
// decided proposal is left alone (the seed keeps what was decided). The
// change is one seed commit ("Update: …", through [seed.Update]) and a
// ledger record. It reports whether a proposal was revised.
func Revise(seedPath string, opts *seed.Options, ledger Ledger, e learn.Entry, now string) (bool, error) {
	records, err := ledger.Records()
	if err != nil {
		return false, err
	}
	var rec Record
	found := false
	for _, r := range Latest(records) {
		if r.EntryID == e.ID && r.Status == StatusProposed {
			rec, found = r, true
		}
	}
	content, typ := Content(e), SeedType(e)
	if !found || content == "" || rec.Content == content && rec.Type == typ {
		return false, nil
	}
	revised := false
	_, _, err = seed.Update(seedPath, opts, seed.CategoryUpdate, func(s *seed.Seed) (string, error) {
		for i := range s.State.Proposals {
			p := &s.State.Proposals[i]
			if p.ID != rec.ProposalID || p.Status != seed.StatusPending {
				continue
			}
			if p.Content == content && p.Type == typ {
				return "", nil
			}
			p.Content, p.Type = content, typ
			revised = true
			return fmt.Sprintf("revised proposal %s to the edited entry %s", p.ID, e.ID), nil
		}
		return "", nil
	})
	if err != nil || !revised {
		return false, err
	}
	rec.Content, rec.Type, rec.At = content, typ, now
	return true, ledger.Append(rec)
}
