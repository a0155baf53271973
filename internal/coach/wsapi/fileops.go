package wsapi

import (
	"context"
	"fmt"

	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Message types of the workbench's file operations and search (issue 27,
// not in the spec; Story 0 in the [Catalog]). Create, rename and delete go
// through the same os.Root confinement as file:save; the file watcher then
// sends fs:tree_update as for any change on disk.
const (
	TypeFSCreate       = "fs:create"        // client→server: broadcast fs:created
	TypeFSRename       = "fs:rename"        // client→server: broadcast fs:renamed
	TypeFSDelete       = "fs:delete"        // client→server: broadcast fs:deleted
	TypeFSSearch       = "fs:search"        // client→server: reply fs:search_result
	TypeFSCreated      = "fs:created"       // server→client
	TypeFSRenamed      = "fs:renamed"       // server→client
	TypeFSDeleted      = "fs:deleted"       // server→client
	TypeFSSearchResult = "fs:search_result" // server→client
)

// FileOps are the file operations beyond reading and saving; a [Files]
// that does not implement it answers them FILE_ERROR.
type FileOps interface {
	Create(ctx context.Context, path string, dir bool) (string, error)
	Rename(ctx context.Context, from, to string) (string, string, error)
	Delete(ctx context.Context, path string) (string, error)
	Search(ctx context.Context, query string) (SearchResult, error)
}

// SearchResult is fs:search_result's body (without the query).
type SearchResult = workspace.SearchResult

// FSCreate is fs:create: a new empty file, or a directory when Type is
// "directory".
type FSCreate struct {
	Path string `json:"path"`
	Type string `json:"type"` // "file" (default) or "directory"
}

// Valid reports whether the path is set and the type known.
func (c *FSCreate) Valid() error {
	if c.Type != "" && c.Type != "file" && c.Type != "directory" {
		return fmt.Errorf("type must be file or directory, got %q", c.Type)
	}
	return required("path", c.Path)
}

// CheckLimits checks the path.
func (c *FSCreate) CheckLimits() error { return limits.Path("path", c.Path) }

// FSRename is fs:rename and fs:renamed.
type FSRename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Valid reports whether both paths are set.
func (r *FSRename) Valid() error {
	if err := required("from", r.From); err != nil {
		return err
	}
	return required("to", r.To)
}

// CheckLimits checks both paths.
func (r *FSRename) CheckLimits() error {
	return limits.First(limits.Path("from", r.From), limits.Path("to", r.To))
}

// FSSearch is fs:search: plain text, case-insensitive.
type FSSearch struct {
	Query string `json:"query"`
}

// Valid reports whether the query is set.
func (s *FSSearch) Valid() error { return required("query", s.Query) }

// CheckLimits checks the query's size.
func (s *FSSearch) CheckLimits() error {
	return limits.Bytes("query", s.Query, workspace.SearchMaxQuery)
}

// FSSearchResult answers fs:search: at most workspace.SearchMaxHits lines;
// Truncated when a bound stopped the search.
type FSSearchResult struct {
	Query string `json:"query"`
	SearchResult
}

func (s *Server) fileOps(path string) (FileOps, error) {
	ops, ok := s.files.(FileOps)
	if !ok {
		return nil, fileError(path, fmt.Errorf("file operations are not available in this server"))
	}
	return ops, nil
}

func (s *Server) handleCreate(ctx context.Context, req *Request, c FSCreate) error {
	ops, err := s.fileOps(c.Path)
	if err != nil {
		return err
	}
	typ := "file"
	if c.Type == "directory" {
		typ = c.Type
	}
	p, err := ops.Create(ctx, c.Path, typ == "directory")
	if err != nil {
		return fileError(c.Path, err)
	}
	req.Broadcast(TypeFSCreated, FSCreate{Path: p, Type: typ})
	return nil
}

func (s *Server) handleRename(ctx context.Context, req *Request, r FSRename) error {
	ops, err := s.fileOps(r.From)
	if err != nil {
		return err
	}
	from, to, err := ops.Rename(ctx, r.From, r.To)
	if err != nil {
		return fileError(r.From, err)
	}
	_, _ = s.sess.CloseFile(from)
	req.Broadcast(TypeFSRenamed, FSRename{From: from, To: to})
	return nil
}

func (s *Server) handleDelete(ctx context.Context, req *Request, p PathPayload) error {
	ops, err := s.fileOps(p.Path)
	if err != nil {
		return err
	}
	path, err := ops.Delete(ctx, p.Path)
	if err != nil {
		return fileError(p.Path, err)
	}
	_, _ = s.sess.CloseFile(path)
	req.Broadcast(TypeFSDeleted, PathPayload{Path: path})
	return nil
}

func (s *Server) handleSearch(ctx context.Context, req *Request, q FSSearch) error {
	ops, err := s.fileOps("")
	if err != nil {
		return err
	}
	res, err := ops.Search(ctx, q.Query)
	if err != nil {
		return &Error{Code: CodeFileError, Message: err.Error()}
	}
	req.Reply(TypeFSSearchResult, FSSearchResult{Query: q.Query, SearchResult: res})
	return nil
}

var _ FileOps = WorkspaceFiles{}

// Create creates a file or directory in the project.
func (f WorkspaceFiles) Create(_ context.Context, path string, dir bool) (string, error) {
	p, err := f.WS.Create(path, dir)
	return p.Rel, err
}

// Rename moves a file or directory within the project.
func (f WorkspaceFiles) Rename(_ context.Context, from, to string) (string, string, error) {
	a, b, err := f.WS.Rename(from, to)
	return a.Rel, b.Rel, err
}

// Delete removes a file or directory from the project.
func (f WorkspaceFiles) Delete(_ context.Context, path string) (string, error) {
	p, err := f.WS.Delete(path)
	return p.Rel, err
}

// Search finds the project's lines containing query.
func (f WorkspaceFiles) Search(_ context.Context, query string) (SearchResult, error) {
	return f.WS.Search(query)
}
