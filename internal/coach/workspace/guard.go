package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/paige-dev/paige/internal/coach/limits"
)

// Errors returned (wrapped) by the path guard and file operations.
var (
	// ErrOutsideProject means the path resolves outside PROJECT_DIR (EC-10, EC-11).
	ErrOutsideProject = errors.New("workspace: path is outside the project directory")
	// ErrInvalidPath means the path is empty, contains a NUL byte or a dangling symlink.
	ErrInvalidPath = errors.New("workspace: invalid path")
	// ErrBinary means the file is binary; binary files have no buffer and no diff (EC-12).
	ErrBinary = errors.New("workspace: binary file")
)

// Guard confines paths to one project directory. Every file operation of
// this package goes through [Guard.Resolve]. A Guard is immutable and safe
// for concurrent use.
//
// A path is accepted when, after resolving symlinks on both sides (the
// project directory's real path and the deepest existing ancestor of the
// requested path), it lies inside the project. Lexical escapes ("..", an
// absolute path elsewhere, a sibling such as "<PROJECT_DIR>-evil/x"), empty
// paths and NUL bytes are rejected before any file-system access.
//
// The files themselves are opened through an [os.Root] on the project
// directory ([Guard.FS]), so a symlink swapped in between the check and the
// open (or any other component changed meanwhile) still cannot lead
// outside the project: there is no check-then-open race.
type Guard struct {
	root  string   // real (symlink-free) absolute path of the project
	alias string   // the project path as configured, absolute and clean; accepted on input
	fs    *os.Root // the project directory; every file access goes through it
}

// Path is a path that passed the guard.
type Path struct {
	// Rel is the one normalised form used as a key everywhere (buffer cache,
	// action log, messages): slash-separated, relative to the project, clean,
	// symlinks resolved; "." is the project root.
	Rel string
	// Abs is the absolute OS path under the project's real path.
	Abs string
}

// NewGuard returns a Guard for projectDir, which must exist and be a directory.
func NewGuard(projectDir string) (*Guard, error) {
	if projectDir == "" {
		return nil, fmt.Errorf("%w: empty project directory", ErrInvalidPath)
	}
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, fmt.Errorf("project directory %s: %w", projectDir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project directory %s: %w", projectDir, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("project directory %s: %w", projectDir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("project directory %s is not a directory", projectDir)
	}
	dir, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("project directory %s: %w", projectDir, err)
	}
	return &Guard{root: real, alias: abs, fs: dir}, nil
}

// FS returns the project directory as an [os.Root]: open files with the
// [Path.Rel] of a resolved path (filepath.FromSlash) and the open cannot
// leave the project, whatever changed on disk since [Guard.Resolve]. It
// stays open for the Guard's lifetime; do not close it.
func (g *Guard) FS() *os.Root { return g.fs }

// Root returns the real absolute path of the project directory.
func (g *Guard) Root() string { return g.root }

// Normalize returns the project-relative, slash-separated, clean form of p
// without touching the file system (symlinks are not resolved). It rejects
// empty paths, NUL bytes, anything that lexically escapes the project, and
// paths over the length and depth limits (package limits).
// Absolute paths are accepted under the project's real or configured path.
func (g *Guard) Normalize(p string) (string, error) {
	return normalize(g.root, g.alias, p)
}

// normalize is the pure first stage of the guard. Paths longer than
// [limits.PathBytes] or deeper than [limits.PathDepth] components (counted
// relative to the project) are refused with a *limits.Error before
// anything else looks at them.
func normalize(root, alias, p string) (string, error) {
	rel, err := normalizeText(root, alias, p)
	if err == nil {
		err = limits.Path("path", rel)
	}
	if err != nil {
		return "", err
	}
	return rel, nil
}

func normalizeText(root, alias, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("%w: empty path", ErrInvalidPath)
	}
	if err := limits.Bytes("path", p, limits.PathBytes); err != nil {
		return "", err
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("%w: path contains a NUL byte", ErrInvalidPath)
	}
	if filepath.IsAbs(p) {
		clean := filepath.Clean(p)
		for _, base := range [2]string{root, alias} {
			if rel, ok := within(base, clean); ok {
				return rel, nil
			}
		}
		return "", fmt.Errorf("%q: %w", p, ErrOutsideProject)
	}
	clean := filepath.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q: %w", p, ErrOutsideProject)
	}
	return filepath.ToSlash(clean), nil
}

// within reports whether clean (absolute, clean) is base or lies under it,
// and returns the slash-separated relative path. "<base>-evil/x" is not
// under base.
func within(base, clean string) (string, bool) {
	if clean == base {
		return ".", true
	}
	// base + separator, compared without building it: the watcher calls
	// this for every file it walks.
	n := len(base)
	if !strings.HasPrefix(clean, base) {
		return "", false
	}
	if !strings.HasSuffix(base, string(filepath.Separator)) {
		if len(clean) == n || clean[n] != filepath.Separator {
			return "", false
		}
		n++
	}
	return filepath.ToSlash(clean[n:]), true
}

// Resolve checks p (relative to the project, or absolute) and returns its
// normalised form. After the lexical checks it resolves symlinks of the
// deepest existing ancestor, so a path that does not exist yet (a file about
// to be written) is accepted when its existing parent is inside the project.
func (g *Guard) Resolve(p string) (Path, error) {
	rel, err := g.Normalize(p)
	if err != nil {
		return Path{}, err
	}
	abs := filepath.Join(g.root, filepath.FromSlash(rel))
	real, err := realPath(abs)
	if err != nil {
		return Path{}, fmt.Errorf("%q: %w", p, err)
	}
	relReal, ok := within(g.root, real)
	if !ok {
		return Path{}, fmt.Errorf("%q resolves to %s: %w", p, real, ErrOutsideProject)
	}
	return Path{Rel: relReal, Abs: real}, nil
}

// realPath resolves symlinks in abs; components that do not exist yet are
// appended unresolved to the real path of the deepest existing ancestor. A
// dangling symlink is an error: writing through it could leave the project.
func realPath(abs string) (string, error) {
	var missing []string
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(missing) - 1; i >= 0; i-- {
				real = filepath.Join(real, missing[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if _, lerr := os.Lstat(cur); lerr == nil {
			return "", fmt.Errorf("%w: dangling symlink %s", ErrInvalidPath, cur)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", err
		}
		missing = append(missing, filepath.Base(cur))
		cur = parent
	}
}
