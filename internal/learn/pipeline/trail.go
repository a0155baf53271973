package pipeline

import (
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/trail"
	"github.com/paige-dev/paige/internal/project"
)

// trailMerger returns the function that folds the mined candidates into
// the stored entries ([trail.Merge]), resolving each cwd once, with the
// session's turns and the known projects ([sessionProjects]).
func trailMerger(turns []learn.Turn, mined []trail.Candidate, source string, opts Options) func([]learn.Entry) []learn.Entry {
	resolve := opts.Project
	if resolve == nil {
		resolve = project.Resolve
	}
	stamp := now(opts).UTC().Format(time.RFC3339)
	return func(existing []learn.Entry) []learn.Entry {
		if len(mined) == 0 {
			return nil
		}
		of := sessionProjects(resolve, turns, existing)
		cache := map[string]string{}
		cached := func(cwd string) string {
			p, ok := cache[cwd]
			if !ok {
				p = of(cwd)
				cache[cwd] = p
			}
			return p
		}
		return trail.Merge(existing, mined, cached, source, stamp)
	}
}

// storeTrail stores the trail's new entries and new versions within the
// batch b, under the store's lock, so concurrent runs never count one
// session twice or add one behaviour twice.
func storeTrail(s *knowledge.Batch, res *Result, merge func([]learn.Entry) []learn.Entry) error {
	updates := map[string]bool{}
	stored, _, err := s.AppendNew(func(existing []learn.Entry) []learn.Entry {
		out := merge(existing)
		for _, e := range out {
			if e.ID != "" {
				updates[e.ID] = true
			}
		}
		return out
	})
	if err != nil {
		return err
	}
	for _, e := range stored {
		record(res, e, updates[e.ID])
	}
	return nil
}

// addTrail records merged, unstored trail entries in res: the new ones
// have no id yet.
func addTrail(res *Result, merged []learn.Entry) {
	for _, e := range merged {
		record(res, knowledge.RedactEntry(e), e.ID != "") // as the store would keep it
	}
}

// record counts one trail entry in res: new ones in Entries, new versions
// of existing ones in Updated.
func record(res *Result, e learn.Entry, updated bool) {
	if updated {
		res.Updated = append(res.Updated, e)
		res.Stats.EntriesUpdated++
		return
	}
	res.Entries = append(res.Entries, e)
	res.Stats.EntriesExtracted++
	res.Stats.BehaviourEntries++
}

// MinProposalSessions is in how many sessions a behaviour must have been
// seen before it is proposed to the seed: one run is an observation, a
// repetition across sessions a habit worth proposing.
const MinProposalSessions = 2

// Proposable returns the entries of res worth proposing to the seed: the
// new entries learned from sentences, and the behaviour entries seen in at
// least MinProposalSessions sessions (new, or reaching that count with
// this transcript).
func Proposable(res Result) []learn.Entry {
	var out []learn.Entry
	for _, e := range res.Entries {
		if e.Observed == nil || e.Observed.SessionCount >= MinProposalSessions {
			out = append(out, e)
		}
	}
	for _, e := range res.Updated {
		if e.Observed != nil && e.Observed.SessionCount == MinProposalSessions {
			out = append(out, e)
		}
	}
	return out
}
