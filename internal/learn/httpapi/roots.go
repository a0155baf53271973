package httpapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Roots are the directories POST /api/extract may read transcripts from.
// Paths are compared after resolving symlinks, so a link inside a root that
// points outside it is refused. The zero value allows nothing.
type Roots struct {
	dirs []string // absolute, symlinks resolved
}

// NewRoots resolves dirs; empty entries and directories that do not exist
// are left out.
func NewRoots(dirs ...string) Roots {
	var r Roots
	for _, d := range dirs {
		if strings.TrimSpace(d) == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			r.dirs = append(r.dirs, real)
		}
	}
	return r
}

// DefaultRoots returns the allowed roots for a user: ~/.claude/projects,
// projectDir, and the colon-separated extra directories (PAIGE_LEARN_ROOTS).
func DefaultRoots(home, projectDir, extra string) Roots {
	dirs := []string{projectDir}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude", "projects"))
	}
	dirs = append(dirs, filepath.SplitList(extra)...)
	return NewRoots(dirs...)
}

// Dirs returns the resolved root directories.
func (r Roots) Dirs() []string { return append([]string(nil), r.dirs...) }

// ErrOutsideRoots is wrapped by [Roots.Resolve] for paths it refuses.
var ErrOutsideRoots = errors.New("transcript path is not under an allowed root")

// Resolve checks that p is an absolute path without ".." elements naming a
// regular file under one of the roots (after resolving symlinks) and
// returns the resolved path.
func (r Roots) Resolve(p string) (string, error) {
	if p == "" {
		return "", errors.New("transcriptPath is required")
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("transcriptPath must be absolute: %q", p)
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			return "", fmt.Errorf("transcriptPath must not contain '..': %q", p)
		}
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("%w: %s (cannot resolve it)", ErrOutsideRoots, p)
	}
	for _, d := range r.dirs {
		if rel, err := filepath.Rel(d, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			fi, err := os.Stat(real)
			if err != nil || !fi.Mode().IsRegular() {
				return "", fmt.Errorf("transcriptPath is not a regular file: %s", p)
			}
			return real, nil
		}
	}
	return "", fmt.Errorf("%w: %s (allowed: ~/.claude/projects, PROJECT_DIR, PAIGE_LEARN_ROOTS)", ErrOutsideRoots, p)
}
