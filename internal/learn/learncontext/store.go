package learncontext

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// Errors of the preprompt store.
var (
	// ErrNotFound is returned when no preprompt has the given id.
	ErrNotFound = errors.New("learncontext: preprompt not found")
	// ErrInvalid is returned for a preprompt with an unknown type, no name or no content.
	ErrInvalid = errors.New("learncontext: invalid preprompt")
)

// Preprompts is the preprompts table of learn.db (see learndb). It is safe
// for concurrent use.
type Preprompts struct {
	DB  *sql.DB
	Now func() time.Time // nil means time.Now
}

// ValidType reports whether t is a preprompt type.
func ValidType(t string) bool {
	switch t {
	case Core, Persona, HardRule, Domain:
		return true
	}
	return false
}

// Add stores p (id and creation time filled when empty) and returns it,
// its name and content redacted (internal/redact).
func (s *Preprompts) Add(ctx context.Context, p Preprompt) (Preprompt, error) {
	p.Name, p.Content = strings.TrimSpace(redact.String(p.Name)), strings.TrimSpace(redact.String(p.Content))
	if !ValidType(p.Type) || p.Name == "" || redact.Blank(p.Content) {
		return p, fmt.Errorf("%w: type must be core, persona, hard_rule or domain; name and content are required", ErrInvalid)
	}
	if p.ID == "" {
		p.ID = uuid.Must(uuid.NewV7()).String()
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	p.CreatedAt = sqlite.FormatTime(now())
	_, err := s.DB.ExecContext(ctx, `INSERT INTO preprompts (id, name, type, content, priority, active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.Name, p.Type, p.Content, p.Priority, p.Active, p.CreatedAt)
	if err != nil {
		return p, fmt.Errorf("add preprompt: %w", err)
	}
	return p, nil
}

// List returns the preprompts by priority, only the active ones when
// activeOnly is set.
func (s *Preprompts) List(ctx context.Context, activeOnly bool) ([]Preprompt, error) {
	q := `SELECT id, name, type, content, priority, active, created_at FROM preprompts`
	if activeOnly {
		q += ` WHERE active = 1`
	}
	return sqlite.QueryAll(ctx, s.DB, "list preprompts", q+` ORDER BY priority, created_at`, nil, func(row sqlite.Scanner) (Preprompt, error) {
		var p Preprompt
		err := row.Scan(&p.ID, &p.Name, &p.Type, &p.Content, &p.Priority, &p.Active, &p.CreatedAt)
		return p, err
	})
}

// SetActive switches the preprompt id on or off.
func (s *Preprompts) SetActive(ctx context.Context, id string, active bool) error {
	res, err := s.DB.ExecContext(ctx, `UPDATE preprompts SET active = ? WHERE id = ?`, active, id)
	if err != nil {
		return fmt.Errorf("update preprompt: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Delete removes the preprompt id.
func (s *Preprompts) Delete(ctx context.Context, id string) error {
	res, err := s.DB.ExecContext(ctx, `DELETE FROM preprompts WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete preprompt: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// KnowledgeSource supplies the entries to assemble; *knowledge.Store is one.
type KnowledgeSource interface {
	Entries() ([]learn.Entry, error)
}

var _ KnowledgeSource = (*knowledge.Store)(nil)

// Assembler loads the active preprompts and the knowledge entries and
// assembles them. A nil Knowledge means no learned knowledge.
type Assembler struct {
	Preprompts  *Preprompts
	Knowledge   KnowledgeSource
	TokenBudget int // 0 means DefaultTokenBudget
	// Project, when set, is the current project's identity: the context
	// takes only its entries (and those holding everywhere), and its
	// procedures are verified against the repository first ([Stale]).
	Project string
}

// Assemble loads and assembles the current context.
func (a *Assembler) Assemble(ctx context.Context) (Assembled, error) {
	prompts, err := a.Preprompts.List(ctx, true)
	if err != nil {
		return Assembled{}, err
	}
	var entries []learn.Entry
	if a.Knowledge != nil {
		if entries, err = a.Knowledge.Entries(); err != nil {
			return Assembled{}, err
		}
	}
	scope := Scope{Project: a.Project}
	if a.Project != "" {
		scope.Stale = Stale(entries)
	}
	return AssembleFor(prompts, entries, a.TokenBudget, scope), nil
}
