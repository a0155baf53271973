package seed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Save writes s to path (see [Write]) and commits it as "category: summary".
// A git failure never fails the save: it is returned as a warning, as is a
// missing git binary.
func Save(path string, s *Seed, category, summary string, opts *Options) (warnings []string, err error) {
	if err := Write(path, s); err != nil {
		return nil, err
	}
	if hookBeforeCommit != nil {
		hookBeforeCommit(path)
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
// merged one. An existing seed in a newly created repository is committed as
// "Init:". A seed that fails to parse or validate is returned as an error
// and left exactly as it is: only [Repair] rewrites it. Without git it
// behaves like [Load] plus a warning. It writes; callers that only read use
// [ReadOnly], and callers that write hold the seed lock (see [Update]).
func LoadWithGit(path string, opts *Options) (Loaded, error) {
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
	res, err := Load(path)
	if err == nil && g != nil {
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
	return res, err
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
	// NothingToDo reports that the seed was valid and left untouched.
	NothingToDo bool `json:"nothingToDo,omitempty"`
	// Problems are the invalid values that were fixed (see [Salvage]).
	Problems []Problem `json:"problems,omitempty"`
	// Backup is where the file was copied before it was rewritten, or "".
	Backup string `json:"backup,omitempty"`
	// RestoredFrom is the commit whose valid seed was restored because the
	// file could not be parsed at all, or "".
	RestoredFrom string `json:"restoredFrom,omitempty"`
	// ResetToDefaults reports that an unparseable seed had no valid version
	// in history and was replaced by the defaults.
	ResetToDefaults bool `json:"resetToDefaults,omitempty"`
	// Warnings are git problems and clean-ups that did not stop the repair.
	Warnings []string `json:"warnings,omitempty"`
}

// Summary is a one-line description of the repair.
func (r RepairResult) Summary() string {
	var s string
	switch {
	case r.NothingToDo:
		return "Seed is valid; nothing to repair."
	case len(r.Problems) > 0:
		s = fmt.Sprintf("fixed %s, kept every valid value", pluralValues(len(r.Problems)))
	case r.RestoredFrom != "":
		s = "seed could not be parsed; restored the last valid version from commit " + short(r.RestoredFrom)
	default:
		s = "seed could not be parsed; reset to defaults"
	}
	if r.Backup != "" {
		s += " (the previous file is kept at " + r.Backup + ")"
	}
	return s
}

func pluralValues(n int) string {
	if n == 1 {
		return "1 invalid value"
	}
	return fmt.Sprintf("%d invalid values", n)
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

// Repair is the only operation that rewrites an invalid seed. Under the seed
// lock (after the clean-up of [Update]) it
//   - leaves a valid seed untouched (NothingToDo);
//   - for a seed with invalid values, copies the file aside (the backup:
//     path.corrupted, or path.corrupted.N when that exists), writes the seed
//     with every valid value kept and every invalid one fixed as [Salvage]
//     says, and commits "Repair: fixed N invalid values, kept every valid
//     value";
//   - for a missing seed or one that cannot be parsed at all, copies it
//     aside (when it exists) and restores the newest version in git history
//     that validates, or else the defaults, committed as "Repair:".
//
// A seed whose major version is newer is refused with an error (a newer
// tool's data is never rewritten). Nothing is ever deleted.
func Repair(path string, opts *Options) (RepairResult, error) {
	unlock, err := lockSeed(path)
	if err != nil {
		return RepairResult{}, err
	}
	defer unlock()
	res := RepairResult{Warnings: prepareWrite(path, opts)}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("seed: read %s: %w", path, err)
	}
	g, warn := findGit(path, opts)
	res.Warnings = append(res.Warnings, nonEmpty(warn)...)
	if err == nil {
		s, problems, lerr := salvageBytes(data, opts.now())
		var le *LoadError
		switch {
		case lerr == nil && len(problems) == 0:
			res.NothingToDo = true
			return res, nil
		case lerr == nil:
			res.Problems = problems
			return res, repairValues(path, data, s, g, &res)
		case errors.As(lerr, &le) && !repairable(le):
			return res, fmt.Errorf("seed: not repaired: %w", lerr)
		}
		if res.Backup, err = copyAside(path, data); err != nil {
			return res, err
		}
	}
	return res, restoreFromHistory(path, g, &res)
}

// repairValues backs up data and writes the salvaged seed s.
func repairValues(path string, data []byte, s *Seed, g *gitRepo, res *RepairResult) error {
	var err error
	if res.Backup, err = copyAside(path, data); err != nil {
		return err
	}
	if err := Write(path, s); err != nil {
		return err
	}
	commitRepair(g, fmt.Sprintf("fixed %s, kept every valid value", pluralValues(len(res.Problems))), res)
	return nil
}

// restoreFromHistory writes the newest valid committed seed, or the defaults.
func restoreFromHistory(path string, g *gitRepo, res *RepairResult) error {
	restored := Defaults()
	if g != nil && g.isRepo() {
		if s, commit := lastValid(g); s != nil {
			restored, res.RestoredFrom = s, commit
		}
	}
	res.ResetToDefaults = res.RestoredFrom == ""
	if err := Write(path, restored); err != nil {
		return err
	}
	summary := "reset seed to defaults"
	if !res.ResetToDefaults {
		summary = "restored seed from " + short(res.RestoredFrom)
	}
	commitRepair(g, summary, res)
	return nil
}

func commitRepair(g *gitRepo, summary string, res *RepairResult) {
	if g == nil {
		return
	}
	if _, err := g.commit(CategoryRepair, summary); err != nil {
		res.Warnings = append(res.Warnings, "git commit failed: "+err.Error())
	}
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
		if res, err := parse("", data, false); err == nil {
			return res.Seed, c
		}
	}
	return nil, ""
}

// Update loads the seed with git (see [LoadWithGit]), applies change and, if
// change returns a non-empty summary, saves and commits the result as
// "category: summary". It returns the updated seed and warnings. Concurrent
// Updates of one seed (from any process) are serialised by a file lock, so
// no change is lost. Before loading it cleans up after a killed write (see
// prepareWrite), so the commit holds only this change. A seed that does not
// parse or validate is refused with an error wrapping the *[LoadError] and
// left untouched: `paige seed repair` ([Repair]) is the only way to rewrite
// it. A seed file that is missing while git history holds it is refused with
// [ErrSeedDeleted] instead of being recreated with the defaults.
func Update(path string, opts *Options, category string, change func(*Seed) (summary string, err error)) (*Seed, []string, error) {
	unlock, err := lockSeed(path)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	warnings := prepareWrite(path, opts)
	if err := checkNotDeleted(path, opts); err != nil {
		return nil, warnings, err
	}
	res, err := LoadWithGit(path, opts)
	warnings = append(warnings, res.Warnings...)
	if err != nil {
		return nil, warnings, refuseInvalid(path, err)
	}
	summary, err := change(res.Seed)
	if err != nil || summary == "" {
		return res.Seed, warnings, err
	}
	saved, err := Save(path, res.Seed, category, summary, opts)
	return res.Seed, append(warnings, saved...), err
}

// refuseInvalid explains why a write did not happen.
func refuseInvalid(path string, err error) error {
	var e *LoadError
	if errors.As(err, &e) && (e.Code == CodeParse || e.Code == CodeValidation) {
		return fmt.Errorf("%w; %s was left untouched: run `paige seed check`, then `paige seed repair`", e, filepath.Base(path))
	}
	return err
}
