package project

import (
	"errors"
	"os"
	"path/filepath"
)

// Resolve returns the project identity of the absolute directory dir, as
// [ID] does, and never fails, for directories recorded elsewhere (a
// transcript's cwd) that may be gone or unreadable. When dir cannot be
// resolved (removed, a temporary directory, another machine's path), the
// nearest existing ancestor decides: if it lies in a git repository, that
// repository's common directory is the project (dir was inside it);
// otherwise the project is dir's cleaned path as written. A relative or
// empty dir says nothing about where it was and resolves to "" (no
// project).
func Resolve(dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	dir = filepath.Clean(dir)
	if id, err := ID(dir); err == nil {
		return id
	}
	for a := filepath.Dir(dir); ; a = filepath.Dir(a) {
		if _, err := os.Stat(a); err == nil {
			if id, ok := gitProject(a); ok {
				return id
			}
			return dir
		} else if !errors.Is(err, os.ErrNotExist) {
			return dir
		}
		if filepath.Dir(a) == a {
			return dir
		}
	}
}

// gitProject returns the project of the existing directory a when a lies
// in a git repository.
func gitProject(a string) (string, bool) {
	id, err := ID(a)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(a)
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(real)
	return id, err == nil && id != abs
}
