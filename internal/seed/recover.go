package seed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CategoryRecover starts the commit of a seed change found uncommitted before
// a write (see [Update]).
const CategoryRecover = "Recover"

// Test hooks: nil outside tests. A test process sets one to stop (and be
// killed) at that point of a write.
var (
	// hookBeforeRename runs in writeAtomic after the temp file is written
	// and before it replaces the target.
	hookBeforeRename func(target string)
	// hookBeforeCommit runs in [Save] after the seed was replaced and before
	// it is committed.
	hookBeforeCommit func(path string)
)

// prepareWrite cleans up after a write that was killed and must run under
// the seed lock before every write ([Update], [RunSetup], [Repair]). It
//
//  1. removes the temp files a killed write leaves beside the seed
//     (".seed.json.*.tmp", ".seed.schema.json.*.tmp"): every paige write
//     runs under the seed lock, so none of them is in progress;
//  2. removes a stale ".git/index.lock" (a git command killed mid-way), for
//     the same reason: paige runs git in the seed repository only under the
//     seed lock;
//  3. commits the sessions [RecordSession] logged since the last write as
//     "Update: session … started" (see commitSessionLog);
//  4. commits a seed change that is not committed yet (a write killed
//     between rename and commit, a commit killed after "git add", or an
//     edit made outside paige) on its own as "Recover: …", so it is never
//     swept into the commit of the unrelated write that follows. A change
//     that does not validate is left as it is: it cannot come from a paige
//     write (writes are validated before the rename), so it is the user's
//     edit, and the write that follows refuses to run until `paige seed
//     repair` (which keeps a backup) has been run.
//
// The lock file itself (seed.json.lock.tmp) is an flock: the kernel releases
// it when its owner dies, so a killed process never leaves a held lock; the
// empty file stays (removing a lock file others may have open would break
// the lock). Problems become warnings; prepareWrite never fails a write.
func prepareWrite(path string, opts *Options) []string {
	var warnings []string
	if n, err := removeStaleTemps(path); err != nil {
		warnings = append(warnings, "could not remove temp files: "+err.Error())
	} else if n > 0 {
		warnings = append(warnings, fmt.Sprintf("removed %d temp file(s) left by an interrupted write", n))
	}
	g, _ := findGit(path, opts)
	if g == nil || !g.isRepo() {
		return append(warnings, nonEmpty(commitSessionLog(g, path))...)
	}
	lock := filepath.Join(g.dir, ".git", "index.lock")
	if _, err := os.Lstat(lock); err == nil {
		if err := os.Remove(lock); err != nil {
			warnings = append(warnings, "could not remove stale git lock: "+err.Error())
		} else {
			warnings = append(warnings, "removed a stale .git/index.lock left by an interrupted commit")
		}
	}
	warnings = append(warnings, nonEmpty(commitSessionLog(g, path))...)
	if w := recoverUncommitted(g, path); w != "" {
		warnings = append(warnings, w)
	}
	return warnings
}

// removeStaleTemps removes the temp files writeAtomic leaves when killed.
func removeStaleTemps(path string) (int, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".tmp") || e.IsDir() {
			continue
		}
		if !strings.HasPrefix(name, "."+base+".") && !strings.HasPrefix(name, "."+SchemaFileName+".") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, err
		}
		n++
	}
	return n, nil
}

// recoverUncommitted commits a valid uncommitted seed change as "Recover:"
// and returns a warning saying what it did, or "".
func recoverUncommitted(g *gitRepo, path string) string {
	out, err := g.run("status", "--porcelain", "--", g.name, SchemaFileName, ".gitignore")
	if err != nil {
		return "could not check for uncommitted seed changes: " + err.Error()
	}
	if strings.TrimSpace(out) == "" {
		return ""
	}
	_, problems, rerr := ReadOnly(path)
	if errors.Is(rerr, ErrNoSeed) {
		return "" // a deleted seed is recreated (or restored by repair) by what follows
	}
	if rerr != nil || len(problems) > 0 {
		return "" // the user's invalid edit: left for check/repair, see prepareWrite
	}
	summary := "uncommitted change to " + g.name + " (an interrupted write or an edit outside paige)"
	committed, err := g.commit(CategoryRecover, summary)
	if err != nil {
		return "could not commit the uncommitted seed change: " + err.Error()
	}
	if !committed {
		return "" // e.g. only a deleted .gitignore: nothing of the seed to commit
	}
	return "committed an uncommitted seed change on its own (" + CategoryRecover + ": " + summary + ")"
}

// WriteSchemaBeside writes the JSON Schema to seed.schema.json in the seed's
// directory (see [WriteSchema]) under the seed lock, so the clean-up before a
// write never removes its temp file. It returns the schema's path.
func WriteSchemaBeside(seedPath string) (string, error) {
	unlock, err := lockSeed(seedPath)
	if err != nil {
		return "", err
	}
	defer unlock()
	out := filepath.Join(filepath.Dir(seedPath), SchemaFileName)
	return out, WriteSchema(out)
}

// ErrSeedDeleted is returned (wrapped) by writes when the seed file is gone
// but its repository holds committed versions: creating a default seed
// would bury the user's data, so the write waits for `paige seed repair`,
// which restores the last valid version.
var ErrSeedDeleted = errors.New("seed: the seed file is missing but its git history is not")

// checkNotDeleted returns an error wrapping [ErrSeedDeleted] when path is
// missing while the seed repository has committed it.
func checkNotDeleted(path string, opts *Options) error {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	g, _ := findGit(path, opts)
	if g == nil || !g.isRepo() {
		return nil
	}
	if commits, err := g.history(g.name); err != nil || len(commits) == 0 {
		return nil
	}
	return fmt.Errorf("%w: nothing was written; run `paige seed repair` to restore %s from history", ErrSeedDeleted, path)
}
