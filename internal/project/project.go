// Package project gives every part of Paige (learn, seed proposals, coach
// memories) one identity for "the project a directory belongs to": the
// git common directory of the repository that holds it, so every worktree
// of one repository is one project; outside git, the directory's absolute
// path. Never a base name: two checkouts called "app" are two projects.
//
// The identity is found without running git, by reading the .git entry
// (directory, or a worktree's or submodule's "gitdir:" file and its
// commondir file), so it works where git is not installed. It is a core
// package: it imports no capability.
package project

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ID returns the project identity of dir: the absolute, symlink-resolved
// git common directory of the repository containing dir (searched upward),
// or dir's absolute, symlink-resolved path when no repository contains it.
// It fails only when dir cannot be resolved or a .git entry is unreadable.
func ID(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project of %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else {
		return "", fmt.Errorf("project of %s: %w", dir, err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		common, ok, err := commonDir(filepath.Join(d, ".git"))
		if err != nil {
			return "", fmt.Errorf("project of %s: %w", dir, err)
		}
		if ok {
			return common, nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
	}
}

// commonDir resolves the .git entry at dotGit: ok is false when there is
// none.
func commonDir(dotGit string) (dir string, ok bool, err error) {
	fi, err := os.Stat(dotGit)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	gitDir := dotGit
	if !fi.IsDir() { // a worktree or submodule: "gitdir: <path>"
		if gitDir, err = readGitdirFile(dotGit); err != nil {
			return "", false, err
		}
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		gitDir = c
	}
	gitDir = filepath.Clean(gitDir)
	if real, err := filepath.EvalSymlinks(gitDir); err == nil {
		gitDir = real
	}
	return gitDir, true, nil
}

func readGitdirFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	rest, found := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !found {
		return "", fmt.Errorf("%s: not a gitdir file", path)
	}
	d := strings.TrimSpace(rest)
	if !filepath.IsAbs(d) {
		d = filepath.Join(filepath.Dir(path), d)
	}
	return d, nil
}
