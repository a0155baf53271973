package learnseed

import (
	"fmt"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/seed"
)

// Options say where the seed and the ledger are and what to stamp on the
// proposals. SeedPath and StoreDir are required.
type Options struct {
	SeedPath  string
	Seed      *seed.Options // nil means defaults (git when available)
	StoreDir  string        // the knowledge store's directory; the ledger lives there
	SessionID string        // proposals' source is "session:<SessionID>"; empty: the entry's source
	Method    string        // seed method; see [Method]
	Now       func() time.Time
}

// Result counts what [Run] did.
type Result struct {
	Proposed []seed.Proposal `json:"proposed"`
	Skipped  int             `json:"skipped"` // duplicates, inactive or empty entries
	Synced   int             `json:"synced"`  // decisions copied from the seed to the ledger
}

// Run syncs the user's decisions into the ledger, then adds to the seed, in
// one commit, a proposal for every entry that is not a duplicate (see the
// package doc), and records them in the ledger.
func Run(entries []learn.Entry, opts Options) (Result, error) {
	var res Result
	ledger := OpenLedger(opts.StoreDir)
	records, err := ledger.Records()
	if err != nil {
		return res, fmt.Errorf("read ledger: %w", err)
	}
	now := seed.FormatTime(nowOf(opts))
	var synced []Record
	var added []Candidate
	_, _, err = seed.Update(opts.SeedPath, opts.Seed, seed.CategoryLearn, func(s *seed.Seed) (string, error) {
		synced = Sync(records, s, now)
		known := NewKnown(s, Rejected(append(records, synced...)))
		cands := Candidates(entries, known, opts.SessionID, opts.Method)
		props := make([]seed.Proposal, len(cands))
		for i := range cands {
			cands[i].Proposal.ID = seed.NewID()
			props[i] = cands[i].Proposal
		}
		n, err := seed.MergeProposals(s, props, now)
		if err != nil || n == 0 {
			return "", err
		}
		added = cands
		return fmt.Sprintf("%d new proposal%s from %s", n, plural(n), props[0].Source), nil
	})
	if err != nil {
		return res, fmt.Errorf("add proposals to the seed: %w", err)
	}
	for _, c := range added {
		synced = append(synced, Record{EntryID: c.EntryID, ProposalID: c.Proposal.ID, Type: c.Proposal.Type,
			Content: c.Proposal.Content, Status: StatusProposed, At: now})
		res.Proposed = append(res.Proposed, c.Proposal)
	}
	if err := ledger.Append(synced...); err != nil {
		return res, fmt.Errorf("write ledger: %w", err)
	}
	res.Synced = len(synced) - len(added)
	res.Skipped = len(entries) - len(added)
	return res, nil
}

func nowOf(o Options) time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
