package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// ErrNoMemory is returned by [Editor] methods for an id no memory has.
var ErrNoMemory = errors.New("memory: no memory with that id")

// ErrEmptyContent is returned by [Editor.UpdateMemory] for content that is
// blank once redacted.
var ErrEmptyContent = errors.New("memory: content is empty")

// Editor is a [Store] whose memories the user can see, change and forget
// (the Memory page, `paige memory`). Unlike the recall path, its methods are
// explicit user requests: they return errors instead of degrading.
// [Embedded] implements it.
type Editor interface {
	Store
	// ListMemories returns every memory (of project when non-empty), newest
	// first; Distance is 0.
	ListMemories(ctx context.Context, project string) ([]Result, error)
	// UpdateMemory replaces a memory's content (redacted, re-embedded),
	// keeping its id and metadata, and returns it as stored.
	UpdateMemory(ctx context.Context, id, content string) (Result, error)
	// DeleteMemory removes a memory for good.
	DeleteMemory(ctx context.Context, id string) error
	// SetProjects rewrites the project of every memory for which projectOf
	// answers a new project (ok), and returns how many changed: the
	// migration from base-name projects to project identities.
	SetProjects(ctx context.Context, projectOf func(Metadata) (project string, ok bool)) (int, error)
}

var _ Editor = (*Embedded)(nil)

// ListMemories reads the memories from the database; see [Editor].
func (e *Embedded) ListMemories(ctx context.Context, project string) ([]Result, error) {
	q := `SELECT id, session_id, project, created_at, importance, tags, content FROM memories`
	var args []any
	if project != "" {
		q += ` WHERE project = ?`
		args = append(args, project)
	}
	return sqlite.QueryAll(ctx, e.db, "memory: list", q+` ORDER BY created_at DESC, rowid DESC`, args, func(row sqlite.Scanner) (Result, error) {
		var r Result
		m := &r.Metadata
		err := row.Scan(&r.ID, &m.SessionID, &m.Project, &m.CreatedAt, &m.Importance, &m.Tags, &r.Content)
		return r, err
	})
}

// UpdateMemory changes one memory's content; see [Editor].
func (e *Embedded) UpdateMemory(ctx context.Context, id, content string) (Result, error) {
	content = strings.TrimSpace(redact.String(content))
	if redact.Blank(content) {
		return Result{}, ErrEmptyContent
	}
	e.addM.Lock() // no AddMemories numbering against a reloading index
	defer e.addM.Unlock()
	r, err := e.get(ctx, id)
	if err != nil {
		return r, err
	}
	vecs, err := e.emb.Embed(ctx, []string{content})
	if err != nil {
		return r, fmt.Errorf("memory: embed the new content: %w", err)
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE memories SET content = ?, embedding = ? WHERE id = ?`,
		content, encodeVector(vecs[0]), id); err != nil {
		return r, fmt.Errorf("memory: update %s: %w", id, err)
	}
	e.invalidate()
	r.Content = content
	return r, nil
}

// DeleteMemory removes one memory; see [Editor].
func (e *Embedded) DeleteMemory(ctx context.Context, id string) error {
	e.addM.Lock()
	defer e.addM.Unlock()
	res, err := e.db.ExecContext(ctx, `DELETE FROM memories WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("memory: delete %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %q", ErrNoMemory, id)
	}
	e.invalidate()
	return nil
}

// SetProjects rewrites projects in one transaction; see [Editor].
func (e *Embedded) SetProjects(ctx context.Context, projectOf func(Metadata) (string, bool)) (int, error) {
	e.addM.Lock()
	defer e.addM.Unlock()
	all, err := e.ListMemories(ctx, "")
	if err != nil {
		return 0, err
	}
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("memory: set projects: %w", err)
	}
	defer tx.Rollback()
	n := 0
	for _, r := range all {
		p, ok := projectOf(r.Metadata)
		if !ok || p == r.Metadata.Project {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET project = ? WHERE id = ?`, p, r.ID); err != nil {
			return 0, fmt.Errorf("memory: set project of %s: %w", r.ID, err)
		}
		n++
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("memory: set projects: %w", err)
	}
	if n > 0 {
		e.invalidate()
	}
	return n, nil
}

func (e *Embedded) get(ctx context.Context, id string) (Result, error) {
	var r Result
	m := &r.Metadata
	err := e.db.QueryRowContext(ctx, `SELECT id, session_id, project, created_at, importance, tags, content
		FROM memories WHERE id = ?`, id).Scan(&r.ID, &m.SessionID, &m.Project, &m.CreatedAt, &m.Importance, &m.Tags, &r.Content)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("%w: %q", ErrNoMemory, id)
	}
	if err != nil {
		return r, fmt.Errorf("memory: read %s: %w", id, err)
	}
	return r, nil
}

// invalidate drops the in-memory index; the next call reloads it from the
// database (edits are rare, a reload is one scan).
func (e *Embedded) invalidate() {
	e.mu.Lock()
	e.idx = nil
	e.mu.Unlock()
}
