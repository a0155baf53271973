package memoryview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/seed"
)

// EditEntry replaces the content of the active entry named by id (the id
// or a unique prefix of 4+ characters); its entities are taken from the new
// content. The entry keeps its id, type, evidence, source and pin.
func (s *Service) EditEntry(id, content string) (learn.Entry, error) {
	content = strings.TrimSpace(content)
	if err := checkText("content", content, MaxContent, false); err != nil {
		return learn.Entry{}, err
	}
	e, err := s.Knowledge.Update(id, func(e learn.Entry) (learn.Entry, error) {
		e.Content, e.Entities = content, extract.Entities(content)
		return e, nil
	})
	if err != nil {
		return e, knowledgeErr(id, ambiguous(err))
	}
	// A pending proposal made from the entry says what the entry says now:
	// accepting it commits the edited text.
	if _, err := learnseed.Revise(s.SeedPath, s.Seed, learnseed.OpenLedger(s.Knowledge.Dir()), e, seed.FormatTime(s.now())); err != nil {
		return e, fmt.Errorf("the entry is edited, but its pending seed proposal was not: %w", err)
	}
	return e, nil
}

// SetPinned pins or unpins the active entry named by id. Pinned entries
// come first in the assembled context (internal/learn/learncontext).
func (s *Service) SetPinned(id string, pinned bool) (learn.Entry, error) {
	e, err := s.Knowledge.SetPinned(id, pinned)
	return e, knowledgeErr(id, ambiguous(err))
}

// ForgetEntry forgets exactly the entry named by id: never more than one
// (an ambiguous prefix is refused); it never comes back.
func (s *Service) ForgetEntry(id string) (learn.Entry, error) {
	e, err := s.Knowledge.Forget(id)
	return e, knowledgeErr(id, ambiguous(err))
}

func ambiguous(err error) error {
	if errors.Is(err, knowledge.ErrAmbiguous) {
		return fmt.Errorf("%w: the id prefix matches several entries; give more of it", ErrInvalid)
	}
	return err
}

// Decide accepts or rejects the pending proposal named by id: a seed commit
// ("Confirm: …" or "Reject: …"), then the decision is copied into the
// loop's ledger so the entry it came from shows it. It returns the decided
// proposal and the seed's warnings (git missing, …).
func (s *Service) Decide(id string, accept bool) (seed.Proposal, []string, error) {
	if err := checkText("id", id, 128, false); err != nil {
		return seed.Proposal{}, nil, err
	}
	decide := seed.RejectProposal
	if accept {
		decide = seed.AcceptProposal
	}
	p, warnings, err := decide(s.SeedPath, id, s.Seed)
	switch {
	case errors.Is(err, seed.ErrIDNotFound):
		return p, warnings, fmt.Errorf("%w: no proposal %q", ErrNotFound, id)
	case errors.Is(err, seed.ErrNotPending):
		return p, warnings, fmt.Errorf("%w: %v", ErrConflict, err)
	case errors.Is(err, seed.ErrIDTooShort), errors.Is(err, seed.ErrIDAmbiguous):
		return p, warnings, fmt.Errorf("%w: %v", ErrInvalid, err)
	case errors.As(err, new(*seed.LoadError)):
		return p, warnings, fmt.Errorf("%w: %v", ErrConflict, err)
	case err != nil:
		return p, warnings, err
	}
	if err := s.syncLedger(); err != nil {
		warnings = append(warnings, "the decision is in the seed, but the proposals ledger was not updated: "+err.Error())
	}
	return p, warnings, nil
}

func (s *Service) syncLedger() error {
	ledger := learnseed.OpenLedger(s.Knowledge.Dir())
	records, err := ledger.Records()
	if err != nil {
		return err
	}
	sd, _, err := seed.ReadOnly(s.SeedPath)
	if err != nil {
		return err
	}
	return ledger.Append(learnseed.Sync(records, sd, seed.FormatTime(s.now()))...)
}

// EditMemory replaces a coach memory's content (redacted, re-embedded).
func (s *Service) EditMemory(ctx context.Context, id, content string) (Memory, error) {
	content = strings.TrimSpace(content)
	if err := checkText("content", content, MaxContent, false); err != nil {
		return Memory{}, err
	}
	ed, err := s.editor()
	if err != nil {
		return Memory{}, err
	}
	r, err := ed.UpdateMemory(ctx, id, content)
	if err != nil {
		return Memory{}, memoryErr(id, err)
	}
	return Memory{ID: r.ID, Content: r.Content, Metadata: r.Metadata, ThisProject: s.Project != "" && r.Metadata.Project == s.Project}, nil
}

// ForgetMemory removes a coach memory for good.
func (s *Service) ForgetMemory(ctx context.Context, id string) error {
	ed, err := s.editor()
	if err != nil {
		return err
	}
	return memoryErr(id, ed.DeleteMemory(ctx, id))
}

func (s *Service) editor() (memory.Editor, error) {
	if s.Memory == nil {
		return nil, fmt.Errorf("%w: no memory backend is open", ErrUnavailable)
	}
	ed, ok := s.Memory.(memory.Editor)
	if !ok {
		return nil, fmt.Errorf("%w: this memory backend cannot edit memories (use the embedded one)", ErrUnavailable)
	}
	return ed, nil
}

func memoryErr(id string, err error) error {
	switch {
	case errors.Is(err, memory.ErrNoMemory):
		return fmt.Errorf("%w: no memory %q", ErrNotFound, id)
	case errors.Is(err, memory.ErrEmptyContent):
		return fmt.Errorf("%w: the memory's content is empty once secrets are redacted", ErrInvalid)
	}
	return err
}
