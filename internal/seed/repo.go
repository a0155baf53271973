package seed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

// Save writes s to path (see [Write]) and commits it as "category: summary".
// A git failure never fails the save: it is returned as a warning, as is a
// missing git binary.
func Save(path string, s *Seed, category, summary string, opts *Options) (warnings []string, err error) {
	if err := Write(path, s); err != nil {
		return nil, err
	}
	return commitSeed(path, category, summary, opts), nil
}

func commitSeed(path, category, summary string, opts *Options) []string {
	g, warn := findGit(path, opts)
	if g == nil {
		return nonEmpty(warn)
	}
	if _, err := g.commit(category, summary); err != nil {
		return []string{"git commit failed: " + err.Error()}
	}
	return nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// LoadWithGit initialises the seed repository when needed, loads the seed
// (see [Load]) and commits "Init:" for a created seed and "Merge:" for a
// merged one. A seed that fails to parse or validate is repaired (see
// [Repair]) and loaded again, with a warning saying what happened. An
// existing seed in a newly created repository is committed as "Init:". A seed
// needing migration to a newer major version and read errors are returned
// unchanged. Without git it behaves like [Load] plus a warning.
func LoadWithGit(path string, opts *Options) LoadResult {
	g, warn := findGit(path, opts)
	var warnings []string
	warnings = append(warnings, nonEmpty(warn)...)
	newRepo := false
	if g != nil && !g.isRepo() {
		var err error
		if newRepo, err = g.ensure(); err != nil {
			warnings = append(warnings, "git init failed: "+err.Error())
		}
	}
	res := Load(path)
	if !res.OK && repairable(res.Error) {
		rep, err := Repair(path, opts)
		if err != nil {
			res.Warnings = append(warnings, "repair failed: "+err.Error())
			return res
		}
		res = Load(path)
		warnings = append(warnings, rep.Warnings...)
		warnings = append(warnings, rep.Summary())
	}
	if res.OK && g != nil {
		switch {
		case res.Created:
			if _, err := g.commit(CategoryInit, "created seed with defaults"); err != nil {
				warnings = append(warnings, "git commit failed: "+err.Error())
			}
		case res.Merged:
			if _, err := g.commit(CategoryMerge, "filled in missing fields from defaults"); err != nil {
				warnings = append(warnings, "git commit failed: "+err.Error())
			}
		case newRepo:
			if _, err := g.commit(CategoryInit, "started versioning the existing seed"); err != nil {
				warnings = append(warnings, "git commit failed: "+err.Error())
			}
		}
	}
	res.Warnings = append(warnings, res.Warnings...)
	return res
}

func repairable(e *LoadError) bool {
	if e == nil || (e.Code != CodeParse && e.Code != CodeValidation) {
		return false
	}
	for _, d := range e.Details {
		if d.Code == CodeVersionMismatch {
			return false
		}
	}
	return true
}

// RepairResult says what [Repair] did.
type RepairResult struct {
	// CorruptCopy is where the broken file was copied, or "" if there was none.
	CorruptCopy string `json:"corruptCopy,omitempty"`
	// RestoredFrom is the commit whose valid seed was restored, or "".
	RestoredFrom string `json:"restoredFrom,omitempty"`
	// ResetToDefaults reports that no valid version existed in history.
	ResetToDefaults bool `json:"resetToDefaults"`
	// Warnings are git problems that did not stop the repair.
	Warnings []string `json:"warnings,omitempty"`
}

// Summary is a one-line description of the repair.
func (r RepairResult) Summary() string {
	var s string
	if r.RestoredFrom != "" {
		s = "seed was corrupt; restored the last valid version from commit " + short(r.RestoredFrom)
	} else {
		s = "seed was corrupt; reset to defaults"
	}
	if r.CorruptCopy != "" {
		s += " (broken file kept at " + r.CorruptCopy + ")"
	}
	return s
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

// Repair copies the seed at path aside (path.corrupted, or path.corrupted.N
// when that exists), then restores the newest version in git history that
// validates, or else the defaults, and commits the result as "Repair:".
// Nothing is ever deleted: the broken content survives in the copy.
func Repair(path string, opts *Options) (RepairResult, error) {
	var res RepairResult
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		res.CorruptCopy, err = copyAside(path, data)
		if err != nil {
			return res, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return res, fmt.Errorf("seed: read %s: %w", path, err)
	}
	g, warn := findGit(path, opts)
	res.Warnings = nonEmpty(warn)
	restored := Defaults()
	if g != nil && g.isRepo() {
		if s, commit := lastValid(g); s != nil {
			restored, res.RestoredFrom = s, commit
		}
	}
	res.ResetToDefaults = res.RestoredFrom == ""
	if err := Write(path, restored); err != nil {
		return res, err
	}
	summary := "reset seed to defaults"
	if !res.ResetToDefaults {
		summary = "restored seed from " + short(res.RestoredFrom)
	}
	if g != nil {
		if _, err := g.commit(CategoryRepair, summary); err != nil {
			res.Warnings = append(res.Warnings, "git commit failed: "+err.Error())
		}
	}
	return res, nil
}

func copyAside(path string, data []byte) (string, error) {
	dst := path + ".corrupted"
	for i := 1; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dst = path + ".corrupted." + strconv.Itoa(i)
	}
	if err := writeAtomic(dst, data, 0o600); err != nil {
		return "", fmt.Errorf("seed: copy corrupt seed aside: %w", err)
	}
	return dst, nil
}

// lastValid returns the newest committed seed that decodes and validates.
func lastValid(g *gitRepo) (*Seed, string) {
	commits, err := g.history(g.name)
	if err != nil {
		return nil, ""
	}
	for _, c := range commits {
		data, err := g.show(c, g.name)
		if err != nil {
			continue
		}
		res := parse("", data, false)
		if res.OK {
			return res.Config, c
		}
	}
	return nil, ""
}

// Update loads the seed with git (see [LoadWithGit]), applies change and, if
// change returns a non-empty summary, saves and commits the result as
// "category: summary". It returns the updated seed and warnings. Concurrent
// Updates of one seed (from any process) are serialised by a file lock, so
// no change is lost.
func Update(path string, opts *Options, category string, change func(*Seed) (summary string, err error)) (*Seed, []string, error) {
	unlock, err := lockSeed(path)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	res := LoadWithGit(path, opts)
	if !res.OK {
		return nil, res.Warnings, res.Error
	}
	summary, err := change(res.Config)
	if err != nil || summary == "" {
		return res.Config, res.Warnings, err
	}
	warnings, err := Save(path, res.Config, category, summary, opts)
	return res.Config, append(res.Warnings, warnings...), err
}
