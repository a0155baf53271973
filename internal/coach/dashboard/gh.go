package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

// GitHub CLI invocation (FR-171, D80, D86): open issues only, the fields
// issue assessment reads, at most 50, run from PROJECT_DIR so gh infers the
// repository from the git remote.
var ghArgs = []string{"issue", "list", "--state", "open", "--json", "number,title,body,labels,assignees,comments", "--limit", "50"}

// DefaultGHTimeout bounds one gh run.
const DefaultGHTimeout = 30 * time.Second

// maxGHOutput bounds what is read from gh's stdout (50 issues with long
// threads stay far below it).
const maxGHOutput = 32 << 20

// Human-readable gh failures (EC-82, EC-83, scenario 12.5).
const (
	MsgGHNotFound      = "GitHub CLI not found"
	MsgNoGitHubRemote  = "No GitHub remote found"
	MsgGHNotLoggedIn   = "GitHub CLI is not logged in: run gh auth login"
	MsgGHUnreadable    = "GitHub CLI returned issues Paige cannot read"
	msgGHTimeoutPrefix = "GitHub CLI did not answer within "
)

// GHError is a failed gh run; Message is what the user is shown.
type GHError struct {
	Message string
	Err     error
}

func (e *GHError) Error() string {
	if e.Err == nil {
		return e.Message
	}
	return e.Message + ": " + e.Err.Error()
}

func (e *GHError) Unwrap() error { return e.Err }

// GH runs the GitHub CLI. The zero value runs "gh" from PATH in the current
// directory with DefaultGHTimeout.
type GH struct {
	// Dir is where gh runs (PROJECT_DIR).
	Dir string
	// LookPath finds the gh executable. If nil, exec.LookPath (the
	// process's PATH). Tests use [LookPathIn].
	LookPath func(file string) (string, error)
	// Env is gh's environment. If nil, the process's.
	Env []string
	// Timeout: if zero, DefaultGHTimeout.
	Timeout time.Duration
	// RetryAfter is how long ListIssues remembers a failure (gh missing,
	// not logged in, no remote, too slow, ...) and answers it again
	// without running gh. If zero, DefaultGHRetryAfter.
	RetryAfter time.Duration

	cache ghCache // see gh_cache.go
}

// ListIssues runs `gh issue list --state open --json … --limit 50` and
// decodes its output. Failures are *GHError with a message for the user:
// gh missing (EC-82), no GitHub remote (EC-83), not logged in, timeout,
// unreadable output, or gh's own first error line.
//
// A failure is answered again for RetryAfter without running gh, and
// callers that arrive while a run is in flight share its outcome, so a
// dashboard reloaded while gh is missing or slow does not start one gh
// per request; a success is never reused. Safe for concurrent use.
func (g *GH) ListIssues(ctx context.Context) ([]issueassessment.Issue, error) {
	return g.cache.do(ctx, g.RetryAfter, g.listIssues)
}

// listIssues is one uncached ListIssues.
func (g *GH) listIssues(ctx context.Context) ([]issueassessment.Issue, error) {
	out, err := g.run(ctx, ghArgs...)
	if err != nil {
		return nil, err
	}
	issues, err := ParseIssues(out)
	if err != nil {
		return nil, &GHError{Message: MsgGHUnreadable, Err: err}
	}
	return issues, nil
}

// run runs gh with args from Dir within the timeout and returns its
// stdout; failures are *GHError.
func (g *GH) run(ctx context.Context, args ...string) ([]byte, error) {
	look := g.LookPath
	if look == nil {
		look = exec.LookPath
	}
	bin, err := look("gh")
	if err != nil {
		return nil, &GHError{Message: MsgGHNotFound, Err: err}
	}
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultGHTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = g.Dir, g.Env
	cmd.WaitDelay = time.Second // a child still holding the pipes cannot hang us
	var stdout limitedBuffer
	var stderr bytes.Buffer
	stdout.max = maxGHOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, &GHError{Message: msgGHTimeoutPrefix + timeout.String(), Err: ctx.Err()}
	case errors.Is(err, exec.ErrNotFound) || missing(err, bin):
		return nil, &GHError{Message: MsgGHNotFound, Err: err}
	case err != nil:
		return nil, &GHError{Message: ClassifyGHFailure(stderr.String()), Err: err}
	case stdout.over:
		return nil, &GHError{Message: MsgGHUnreadable, Err: errors.New("output too large")}
	}
	return stdout.Bytes(), nil
}

// missing reports whether err says the file bin does not exist (it went
// away between LookPath and the start).
func missing(err error, bin string) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Path == bin && errors.Is(err, fs.ErrNotExist)
}

// ClassifyGHFailure maps gh's stderr to the message the user sees.
func ClassifyGHFailure(stderr string) string {
	low := strings.ToLower(stderr)
	switch {
	case strings.Contains(low, "no git remotes found"),
		strings.Contains(low, "point to a known github host"),
		strings.Contains(low, "not a git repository"):
		return MsgNoGitHubRemote
	case strings.Contains(low, "gh auth login"), strings.Contains(low, "authentication"):
		return MsgGHNotLoggedIn
	}
	line := strings.TrimSpace(stderr)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	if line == "" {
		return "gh issue list failed"
	}
	if len(line) > 300 {
		line = line[:300]
	}
	return "gh issue list failed: " + strings.ToValidUTF8(line, "")
}

// ParseIssues decodes gh's JSON output: an array of issues (null or empty
// output is no issues). Issues without a positive number are dropped.
func ParseIssues(out []byte) ([]issueassessment.Issue, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 || bytes.Equal(out, []byte("null")) {
		return []issueassessment.Issue{}, nil
	}
	var raw []issueassessment.Issue
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("decode gh output: %w", err)
	}
	issues := make([]issueassessment.Issue, 0, len(raw))
	for _, is := range raw {
		if is.Number > 0 {
			issues = append(issues, is)
		}
	}
	return issues, nil
}

// LookPathIn returns a LookPath that searches the directories of pathList
// (a PATH value) instead of the process's PATH: the first regular,
// executable file named file wins.
func LookPathIn(pathList string) func(file string) (string, error) {
	return func(file string) (string, error) {
		for _, dir := range filepath.SplitList(pathList) {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, file)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return p, nil
			}
		}
		return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
	}
}

// limitedBuffer keeps the first max bytes written and notes an overflow.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
