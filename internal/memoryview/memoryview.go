// Package memoryview is what the user sees and controls of everything Paige
// remembers, in one place: learn's knowledge entries, the seed's proposals
// (with the learn → seed loop: which entry and session each came from, and
// what the user decided) and the coach's session memories. It is the
// meeting point of learn, seed and the memory store behind the workbench's
// Memory page (GET/PATCH/POST/DELETE /api/memory…, see [AddRoutes]) and
// `paige memory`.
//
// Every change goes through the stores' own write paths: knowledge edits,
// pins and forgets are appended under the knowledge store's lock; accepting
// or rejecting a proposal is a seed commit ("Confirm: …", "Reject: …"), and
// the decision is copied into the loop's ledger; memory edits and forgets go
// through [memory.Editor]. Nothing here caches: each [Service.View] reads
// the stores afresh, so the CLI, the hooks and the page never disagree.
package memoryview

import (
	"errors"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/seed"
)

// MaxQuery bounds a search query, in bytes.
const MaxQuery = 1024

// MaxListed bounds how many items of each kind a [View] carries; the rest
// are counted in View.More (a search narrows them down).
const MaxListed = 500

// MaxContent bounds an edited entry's or memory's content, in bytes.
const MaxContent = 16 << 10

// Errors for requests the service refuses.
var (
	// ErrInvalid is wrapped by errors about the request itself.
	ErrInvalid = errors.New("invalid request")
	// ErrNotFound is wrapped when an id names nothing.
	ErrNotFound = errors.New("not found")
	// ErrConflict is wrapped when the item cannot take the change in its
	// state (a forgotten entry, a proposal already decided).
	ErrConflict = errors.New("conflict")
	// ErrUnavailable is wrapped when the store that holds the item is not
	// available for changes (no memory backend, or one without editing).
	ErrUnavailable = errors.New("unavailable")
)

// Service reads and changes the three stores. Knowledge and SeedPath are
// required; Memory may be nil (no memory backend). It is safe for
// concurrent use as far as the stores are.
type Service struct {
	Knowledge *knowledge.Store
	SeedPath  string
	Seed      *seed.Options // nil: defaults (git when available)
	Memory    memory.Store  // nil: no coach memories
	Project   string        // the served project's identity, to mark its memories
	Now       func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Entry is a learned knowledge entry with what became of it in the seed.
type Entry struct {
	learn.Entry
	// Proposal is the seed proposal made from this entry, if any.
	Proposal *ProposalRef `json:"proposal,omitempty"`
}

// ProposalRef names a proposal and its current status.
type ProposalRef struct {
	ID     string `json:"id"`
	Status string `json:"status"` // pending, accepted or rejected
}

// Proposal is a seed proposal with the knowledge entry it came from.
type Proposal struct {
	seed.Proposal
	// EntryID is the knowledge entry the loop made it from ("" when it was
	// proposed another way).
	EntryID string `json:"entryId,omitempty"`
	// Session is the session id of its source ("session:<id>").
	Session string `json:"session,omitempty"`
}

// Memory is a coach memory; ThisProject marks the served project's.
type Memory struct {
	ID          string          `json:"id"`
	Content     string          `json:"content"`
	Metadata    memory.Metadata `json:"metadata"`
	ThisProject bool            `json:"thisProject"`
}

// View is everything remembered that matches a query.
type View struct {
	Query     string     `json:"query"`
	Entries   []Entry    `json:"entries"`   // active entries, pinned first, then newest
	Proposals []Proposal `json:"proposals"` // pending first, then by decision or extraction, newest first
	Memories  []Memory   `json:"memories"`  // newest first
	// MemoryStatus is "editable", "read-only" (a backend without editing)
	// or "off" (no memory backend).
	MemoryStatus string `json:"memoryStatus"`
	// SeedWarnings are problems met reading the seed (invalid values).
	SeedWarnings []string `json:"seedWarnings,omitempty"`
	// Forgotten counts the forgotten entries (never shown, never injected).
	Forgotten int `json:"forgotten"`
	// More counts the matching items of each kind left out beyond MaxListed.
	More More `json:"more"`
}

// More counts items left out of a [View] beyond [MaxListed].
type More struct {
	Entries   int `json:"entries"`
	Proposals int `json:"proposals"`
	Memories  int `json:"memories"`
}
