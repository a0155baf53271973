package seed

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Commit categories: every commit message starts with one of these.
const (
	CategoryInit    = "Init"
	CategoryLearn   = "Learn"
	CategoryConfirm = "Confirm"
	CategoryReject  = "Reject"
	CategoryUpdate  = "Update"
	CategoryMerge   = "Merge"
	CategoryRepair  = "Repair"
)

// CommitTrailer ends every commit message, after a blank line.
const CommitTrailer = "Generated-by: paige seed"

// GitIgnore is the .gitignore written into a new seed repository.
const GitIgnore = "*.tmp\n*.db-shm\n*.db-wal\nnode_modules/\n"

// Local identity set in a new seed repository when git has none configured.
const (
	gitUserName  = "paige seed"
	gitUserEmail = "seed@paige.invalid"
)

// WarnNoGit is reported when no git binary is found.
const WarnNoGit = "git not found: the seed is kept as a plain file without history"

// Options configure the file and git shell. A nil *Options is valid and means
// defaults.
type Options struct {
	// GitPath is a PATH-style list of directories searched for "git". If
	// empty, the process PATH is used.
	GitPath string
	// NoGit disables git persistence entirely (no warning).
	NoGit bool
	// Now returns the current time. If nil, [time.Now] is used.
	Now func() time.Time
}

func (o *Options) now() time.Time {
	if o == nil || o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// gitRepo runs the git binary in one seed directory.
type gitRepo struct {
	bin  string
	dir  string
	name string // the seed file's base name
}

// findGit locates git, or returns nil and a warning.
func findGit(path string, o *Options) (*gitRepo, string) {
	if o != nil && o.NoGit {
		return nil, ""
	}
	var bin string
	if o != nil && o.GitPath != "" {
		for _, d := range filepath.SplitList(o.GitPath) {
			p := filepath.Join(d, "git")
			if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				bin = p
				break
			}
		}
	} else if p, err := exec.LookPath("git"); err == nil {
		bin = p
	}
	if bin == "" {
		return nil, WarnNoGit
	}
	return &gitRepo{bin: bin, dir: filepath.Dir(path), name: filepath.Base(path)}, ""
}

// gitEnv is the process environment without variables that would point git
// at another repository.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_COMMON_DIR", "GIT_PREFIX", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_TERMINAL_PROMPT=0")
}

func (g *gitRepo) run(args ...string) (string, error) {
	cmd := exec.Command(g.bin, append([]string{"-C", g.dir}, args...)...)
	cmd.Env = gitEnv()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// isRepo reports whether the seed directory itself is a repository root.
func (g *gitRepo) isRepo() bool {
	_, err := os.Stat(filepath.Join(g.dir, ".git"))
	return err == nil
}

// ensure initialises the repository with .gitignore and, when git has no
// identity configured, a local one. It reports whether it created the repo.
func (g *gitRepo) ensure() (bool, error) {
	if g.isRepo() {
		return false, nil
	}
	if err := os.MkdirAll(g.dir, 0o700); err != nil {
		return false, fmt.Errorf("create seed directory: %w", err)
	}
	if _, err := g.run("init", "-q"); err != nil {
		return false, err
	}
	ignore := filepath.Join(g.dir, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte(GitIgnore), 0o644); err != nil {
			return true, fmt.Errorf("write .gitignore: %w", err)
		}
	}
	for key, val := range map[string]string{"user.name": gitUserName, "user.email": gitUserEmail} {
		if out, err := g.run("config", "--get", key); err != nil || strings.TrimSpace(out) == "" {
			if _, err := g.run("config", key, val); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// commit stages the seed files and commits them with "category: summary",
// a blank line and [CommitTrailer]. It reports false (and no error) when
// nothing changed.
func (g *gitRepo) commit(category, summary string) (bool, error) {
	if _, err := g.ensure(); err != nil {
		return false, err
	}
	files := []string{}
	for _, f := range []string{g.name, SchemaFileName, ".gitignore"} {
		if _, err := os.Stat(filepath.Join(g.dir, f)); err == nil {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return false, nil
	}
	if _, err := g.run(append([]string{"add", "--"}, files...)...); err != nil {
		return false, err
	}
	if _, err := g.run("diff", "--cached", "--quiet"); err == nil {
		return false, nil
	}
	msg := category + ": " + summary + "\n\n" + CommitTrailer + "\n"
	if _, err := g.run("-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", msg); err != nil {
		return false, err
	}
	return true, nil
}

// history returns the commits touching name, newest first.
func (g *gitRepo) history(name string) ([]string, error) {
	out, err := g.run("log", "--format=%H", "--", name)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// show returns the content of name at commit.
func (g *gitRepo) show(commit, name string) ([]byte, error) {
	out, err := g.run("show", commit+":"+name)
	return []byte(out), err
}
