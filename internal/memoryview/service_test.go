package memoryview

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/seed"
)

func TestViewShowsTheLoop(t *testing.T) {
	r := newRig(t)
	v, err := r.svc.View(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Entries) != 3 || len(v.Proposals) != 2 || len(v.Memories) != 2 || v.MemoryStatus != "editable" {
		t.Fatalf("view: %d entries, %d proposals, %d memories, %s", len(v.Entries), len(v.Proposals), len(v.Memories), v.MemoryStatus)
	}
	for _, p := range v.Proposals {
		if p.EntryID == "" || p.Session != "bbbb2222" || p.Status != seed.StatusPending {
			t.Errorf("proposal without its origin: %+v", p)
		}
	}
	byID := map[string]Entry{}
	for _, e := range v.Entries {
		byID[e.ID] = e
	}
	if byID[r.entries[0].ID].Proposal != nil || byID[r.entries[1].ID].Proposal == nil || byID[r.entries[1].ID].Proposal.Status != "pending" {
		t.Errorf("entry → proposal links: %+v", v.Entries)
	}
	if !v.Memories[0].ThisProject {
		t.Errorf("memory of the served project not marked: %+v", v.Memories[0])
	}
	v, _ = r.svc.View(context.Background(), "PNPM npm")
	if len(v.Entries) != 1 || len(v.Proposals) != 1 || len(v.Memories) != 0 {
		t.Errorf("search pnpm: %+v", v)
	}
	v, _ = r.svc.View(context.Background(), "oauth")
	if len(v.Entries) != 0 || len(v.Memories) != 1 {
		t.Errorf("search oauth: %+v", v)
	}
	if _, err := r.svc.View(context.Background(), strings.Repeat("x", MaxQuery+1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("huge query: %v", err)
	}
}

func TestEditPinForgetEntries(t *testing.T) {
	r := newRig(t)
	id := r.entries[0].ID
	e, err := r.svc.EditEntry(id, "Start the app with iex -S mix phx.server")
	if err != nil || e.Content != "Start the app with iex -S mix phx.server" || e.Type != r.entries[0].Type || e.Evidence != "ran 4 times" {
		t.Fatalf("edit: %+v, %v", e, err)
	}
	if _, err := r.svc.EditEntry(id, " "); !errors.Is(err, ErrInvalid) {
		t.Errorf("blank edit: %v", err)
	}
	if _, err := r.svc.SetPinned(id, true); err != nil {
		t.Fatal(err)
	}
	all, _ := r.svc.Knowledge.Active()
	res := learncontext.Assemble(nil, all, 80) // room for one sourced item and the left-out note
	if !strings.Contains(res.SystemPrompt, "iex -S mix phx.server") {
		t.Errorf("pinned entry not first in the context:\n%s", res.SystemPrompt)
	}
	v, _ := r.svc.View(context.Background(), "")
	if v.Entries[0].ID != id || !v.Entries[0].Pinned {
		t.Errorf("pinned entry not listed first: %+v", v.Entries[0])
	}
	if _, err := r.svc.ForgetEntry(id[:3]); err == nil {
		t.Errorf("a 3-character prefix forgot something")
	}
	if _, err := r.svc.ForgetEntry(id); err != nil {
		t.Fatal(err)
	}
	active, _ := r.svc.Knowledge.Active()
	if len(active) != 2 {
		t.Errorf("forget removed %d entries, want exactly 1", 3-len(active))
	}
	for _, e := range active {
		if e.ID == id {
			t.Errorf("forgotten entry still active")
		}
	}
	if _, err := r.svc.SetPinned(id, false); !errors.Is(err, ErrConflict) {
		t.Errorf("unpin a forgotten entry: %v", err)
	}
	if _, err := r.svc.EditEntry("nope-nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("edit unknown: %v", err)
	}
	if v, _ := r.svc.View(context.Background(), ""); v.Forgotten != 1 || len(v.Entries) != 2 {
		t.Errorf("view after forget: %d forgotten, %d entries", v.Forgotten, len(v.Entries))
	}
}

func TestDecideIsASeedCommitAndReachesTheLedger(t *testing.T) {
	r := newRig(t)
	v, _ := r.svc.View(context.Background(), "")
	accept, reject := v.Proposals[0], v.Proposals[1]
	before := gitLog(t, r.seedDir)
	if _, _, err := r.svc.Decide(accept.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.Decide(reject.ID, false); err != nil {
		t.Fatal(err)
	}
	log := gitLog(t, r.seedDir)
	if len(log) != len(before)+2 || !strings.HasPrefix(log[1], "Confirm:") || !strings.HasPrefix(log[0], "Reject:") {
		t.Errorf("seed commits: %q (before %q)", log, before)
	}
	s, _, err := seed.ReadOnly(r.svc.SeedPath)
	if err != nil {
		t.Fatal(err)
	}
	learned := append(append(s.Learned.Patterns, s.Learned.Insights...), s.Learned.SelfKnowledge...)
	if len(learned) != 1 || learned[0].Content != accept.Content {
		t.Errorf("learned after accept: %+v", learned)
	}
	v, _ = r.svc.View(context.Background(), "")
	for _, e := range v.Entries {
		switch e.ID {
		case accept.EntryID:
			if e.Proposal == nil || e.Proposal.Status != seed.StatusAccepted {
				t.Errorf("accepted entry shows %+v", e.Proposal)
			}
		case reject.EntryID:
			if e.Proposal == nil || e.Proposal.Status != seed.StatusRejected {
				t.Errorf("rejected entry shows %+v", e.Proposal)
			}
		}
	}
	if _, _, err := r.svc.Decide(accept.ID, false); !errors.Is(err, ErrConflict) {
		t.Errorf("decide twice: %v", err)
	}
	if _, _, err := r.svc.Decide("zzzzzzzz", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown proposal: %v", err)
	}
	if len(gitLog(t, r.seedDir)) != len(before)+2 {
		t.Errorf("a refused decision committed")
	}
}

func TestEditAndForgetMemories(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	m, err := r.svc.EditMemory(ctx, "mem_s1_1", "CSS grid: use grid-template-areas")
	if err != nil || m.Content != "CSS grid: use grid-template-areas" || !m.ThisProject {
		t.Fatalf("edit memory: %+v, %v", m, err)
	}
	if err := r.svc.ForgetMemory(ctx, "mem_s1_0"); err != nil {
		t.Fatal(err)
	}
	rs, _ := r.mem.ListMemories(ctx, "")
	if len(rs) != 1 || rs[0].ID != "mem_s1_1" || rs[0].Content != m.Content {
		t.Errorf("memories after edit and forget: %+v", rs)
	}
	if err := r.svc.ForgetMemory(ctx, "mem_s1_0"); !errors.Is(err, ErrNotFound) {
		t.Errorf("forget twice: %v", err)
	}
	off := &Service{Knowledge: r.svc.Knowledge, SeedPath: r.svc.SeedPath}
	if err := off.ForgetMemory(ctx, "mem_s1_1"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("no backend: %v", err)
	}
	if v, err := off.View(ctx, ""); err != nil || v.MemoryStatus != "off" {
		t.Errorf("view without memory: %v, %s", err, v.MemoryStatus)
	}
}

func TestViewIsBounded(t *testing.T) {
	r := newRig(t)
	var many []learn.Entry
	for i := range MaxListed + 7 {
		many = append(many, learn.Entry{Type: learn.Fact, Content: fmt.Sprintf("Service %d listens on port %d", i, 9000+i), Source: "session:bulk"})
	}
	if _, err := r.svc.Knowledge.Append(many...); err != nil {
		t.Fatal(err)
	}
	v, err := r.svc.View(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Entries) != MaxListed || v.More.Entries != 3+7 {
		t.Errorf("listed %d, more %d; want %d and %d", len(v.Entries), v.More.Entries, MaxListed, 10)
	}
	if v, _ := r.svc.View(context.Background(), "port 9003"); len(v.Entries) != 1 || v.More.Entries != 0 {
		t.Errorf("a search narrows it: %d listed, %d more", len(v.Entries), v.More.Entries)
	}
}

// TestEditRevisesPendingProposal: editing an entry whose proposal is
// pending rewrites the proposal (one seed commit), so accepting it commits
// the edited text; an entry whose proposal was decided keeps the decision.
func TestEditRevisesPendingProposal(t *testing.T) {
	r := newRig(t)
	v, _ := r.svc.View(context.Background(), "")
	p := v.Proposals[0]
	before := gitLog(t, r.seedDir)
	const edited = "User prefers pnpm, never yarn"
	var target learn.Entry
	for _, e := range r.entries {
		if e.ID == p.EntryID {
			target = e
		}
	}
	if target.Type != learn.Preference && target.Type != learn.Rule {
		t.Fatalf("proposal %+v of no rig entry", p)
	}
	if _, err := r.svc.EditEntry(p.EntryID, edited); err != nil {
		t.Fatal(err)
	}
	if log := gitLog(t, r.seedDir); len(log) != len(before)+1 || !strings.HasPrefix(log[0], "Update:") {
		t.Errorf("seed commits: %q (before %q)", log, before)
	}
	if _, _, err := r.svc.Decide(p.ID, true); err != nil {
		t.Fatal(err)
	}
	s, _, err := seed.ReadOnly(r.svc.SeedPath)
	if err != nil {
		t.Fatal(err)
	}
	learned := append(append(s.Learned.Patterns, s.Learned.Insights...), s.Learned.SelfKnowledge...)
	if len(learned) != 1 || learned[0].Content != edited {
		t.Errorf("learned after accept: %+v, want %q", learned, edited)
	}
	n := len(gitLog(t, r.seedDir))
	if _, err := r.svc.EditEntry(p.EntryID, "User prefers bun"); err != nil {
		t.Fatal(err)
	}
	if len(gitLog(t, r.seedDir)) != n {
		t.Errorf("editing an entry whose proposal was accepted changed the seed")
	}
}
