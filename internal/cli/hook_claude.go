package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/learn/queue"
)

// addClaudeHookCmds adds the Claude Code hooks Paige answers besides
// session-start to the `paige hook` group.
func addClaudeHookCmds(hook *cobra.Command, e *env) {
	hook.AddCommand(
		newHookPreToolUseCmd(e),
		newHookSessionEndCmd(e),
		newHookLearnQueueCmd(e),
		newHookCoachingStateCmd(e),
		newHookPromptSubmitCmd(e),
	)
}

func newHookPreToolUseCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "pre-tool-use",
		Short: "Claude Code PreToolUse hook: deny writes while a Paige coaching session is active",
		Long: `Reads Claude Code's PreToolUse hook JSON on stdin. While a Paige coaching session is
active for the hook's cwd (a row with status 'active' in DATA_DIR/paige.db's sessions table,
read read-only) it denies Write, Edit, MultiEdit, NotebookEdit and Bash commands that write
files, printing hookSpecificOutput.permissionDecision "deny" with a reason. Everything else
is allowed by printing nothing. PAIGE_MODE=coach always enforces, PAIGE_MODE=off never does.
Always exits 0; problems are one line on stderr and the call is allowed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			runPreToolUse(cmd.Context(), e)
			return nil
		},
	}
}

// runPreToolUse never fails: on any problem it allows the call (layer 3 of
// the read-only principle, no file-writing MCP tool, still holds) and says
// why on stderr.
func runPreToolUse(ctx context.Context, e *env) {
	in, err := readClaudeHookInput(e)
	if err != nil {
		hookError(e, "pre-tool-use", err)
		return
	}
	d := claudecode.DecideReadOnly(in.ToolName, in.ToolInput)
	if !d.Deny {
		return
	}
	cfg, err := e.config()
	if err != nil {
		hookError(e, "pre-tool-use", err)
		return
	}
	v, err := findProjectCoaching(ctx, cfg, in.Cwd, time.Now())
	if err != nil {
		hookError(e, "pre-tool-use", err)
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	var out any = claudecode.DenyOutput(d.Reason + " " + howToFinish)
	switch {
	case v.Lifted != "":
		out = claudecode.SystemMessage(v.Lifted)
	case !v.Enforce:
		return
	}
	if err := enc.Encode(out); err != nil {
		hookError(e, "pre-tool-use", err)
	}
}

// readClaudeHookInput reads the hook JSON from stdin, giving up when stdin is
// a terminal or stays silent for hookStdinTimeout.
func readClaudeHookInput(e *env) (hook.Input, error) {
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return hook.Input{}, errors.New("no hook input: stdin is a terminal (Claude Code pipes the hook JSON)")
	}
	return hook.ReadInputWithin(e.stdin, hookStdinTimeout)
}

func hookError(e *env, hook string, err error) {
	fmt.Fprintf(e.stderr, "paige hook %s: %v\n", hook, err)
}

// readHookWithConfig reads Claude Code's hook JSON and loads the
// configuration for the hook name; on a problem it reports it as
// [hookError] does and returns false.
func readHookWithConfig(e *env, name string) (hook.Input, config.Config, bool) {
	in, err := readClaudeHookInput(e)
	if err == nil {
		var cfg config.Config
		if cfg, err = e.config(); err == nil {
			return in, cfg, true
		}
	}
	hookError(e, name, err)
	return in, config.Config{}, false
}

func newHookSessionEndCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "session-end",
		Short: "Claude Code SessionEnd hook: queue the transcript for learning and return at once",
		Long: `Reads Claude Code's SessionEnd hook JSON on stdin (transcript_path, session_id, reason),
queues the transcript in DATA_DIR/learn-queue (once per transcript version) and starts a
detached worker ('paige hook learn-queue') that extracts knowledge into DATA_DIR/knowledge
and proposes what is new to the seed; the worker logs to DATA_DIR/logs/learn.log. Prints nothing and always exits 0.
PAIGE_LEARN_QUEUE=inline drains the queue before returning, =off only queues.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			runSessionEnd(cmd, e)
			return nil
		},
	}
}

func runSessionEnd(cmd *cobra.Command, e *env) {
	in, cfg, ok := readHookWithConfig(e, "session-end")
	if !ok {
		return
	}
	if in.TranscriptPath == "" {
		logLearn(cfg, "session-end without transcript_path", "session", in.SessionID)
		return
	}
	q := learnQueue(cfg)
	queued, err := q.Enqueue(queue.Item{
		TranscriptPath: in.TranscriptPath, SessionID: in.SessionID, Cwd: in.Cwd, Reason: in.Reason,
	}, time.Now())
	if err != nil {
		logLearn(cfg, "queue failed", "transcript", in.TranscriptPath, "err", err)
		return
	}
	if !queued {
		return
	}
	switch cfg.Learn.LearnQueue {
	case config.Off:
	case config.Inline:
		path, err := seedPath(cmd, e)
		if err != nil {
			logLearn(cfg, "no seed", "err", err)
			return
		}
		drainLearnQueue(cmd.Context(), e, cfg, path)
	default:
		var args []string
		if f := cmd.Flag("seed"); f != nil && f.Value.String() != "" {
			args = []string{"--seed", f.Value.String()}
		}
		if err := startLearnWorker(e, cfg, args); err != nil {
			logLearn(cfg, "start learn worker failed", "err", err)
		}
	}
}

func newHookLearnQueueCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:    "learn-queue",
		Short:  "Process the transcripts queued by session-end (started detached by it)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(e.getenv)
			if err != nil {
				return err
			}
			path, err := seedPath(cmd, e)
			if err != nil {
				return err
			}
			drainLearnQueue(cmd.Context(), e, cfg, path)
			return nil
		},
	}
}

func learnQueue(cfg config.Config) queue.Queue {
	return queue.Queue{Dir: filepath.Join(cfg.DataDir, "learn-queue")}
}

// learnLogPath is where the worker and session-end write what went wrong.
func learnLogPath(cfg config.Config) string {
	return filepath.Join(cfg.DataDir, "logs", "learn.log")
}

// maxLearnLog is the size at which the learn log is rotated to learn.log.1.
const maxLearnLog = 5 << 20

// openLearnLog opens the learn log for appending, rotating it first when
// it has grown past maxLearnLog.
func openLearnLog(cfg config.Config) (*os.File, error) {
	p := learnLogPath(cfg)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxLearnLog {
		_ = os.Rename(p, p+".1")
	}
	return os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

// logLearn appends one line to the learn log; it is best effort, since
// session-end must never fail.
func logLearn(cfg config.Config, msg string, kv ...any) {
	f, err := openLearnLog(cfg)
	if err != nil {
		return
	}
	defer f.Close()
	newLogger(f, "json", "info").Info(msg, kv...)
}

// drainLearnQueue processes queued transcripts until none is left. One
// worker drains at a time (the queue's worker lock); a worker that finds
// the lock taken leaves the work to its holder, which looks at the queue
// again after letting go of the lock, so nothing queued meanwhile waits.
func drainLearnQueue(ctx context.Context, e *env, cfg config.Config, seedPath string) {
	q := learnQueue(cfg)
	for ctx.Err() == nil {
		unlock, ok, err := q.TryLock()
		if err != nil {
			logLearn(cfg, "lock failed", "err", err)
			return
		}
		if !ok {
			return
		}
		drainLocked(ctx, e, cfg, q, seedPath)
		unlock()
		if !q.HasQueued() {
			return
		}
	}
}

// drainLocked processes items until the queue is empty. The worker lock
// must be held.
func drainLocked(ctx context.Context, e *env, cfg config.Config, q queue.Queue, seedPath string) {
	for ctx.Err() == nil {
		c, ok, err := q.Claim(time.Now())
		if err != nil {
			logLearn(cfg, "claim failed", "err", err)
			return
		}
		if !ok {
			return
		}
		start := time.Now()
		res, err := learnFromTranscript(ctx, e, cfg, seedPath, c.Item)
		if err != nil {
			logLearn(cfg, "learn failed", "transcript", c.Item.TranscriptPath, "session", c.Item.SessionID, "err", err)
		} else {
			logLearn(cfg, "learned", "transcript", c.Item.TranscriptPath, "session", c.Item.SessionID,
				"result", res, "took", time.Since(start).String())
		}
		if ferr := q.Finish(c, err); ferr != nil {
			logLearn(cfg, "finish failed", "err", ferr)
		}
	}
}

// startLearnWorker starts `paige hook learn-queue [extra…]` in its own
// session, its output appended to the learn log, and does not wait for it.
func startLearnWorker(e *env, cfg config.Config, extra []string) error {
	bin, err := paigeBinary(cfg)
	if err != nil {
		return err
	}
	log, err := openLearnLog(cfg)
	if err != nil {
		return err
	}
	defer log.Close()
	return startDetached(bin, append([]string{"hook", "learn-queue"}, extra...), log)
}

// paigeBinary is the paige executable hooks start: PAIGE_BIN when set, else
// the running one.
func paigeBinary(cfg config.Config) (string, error) {
	if b := cfg.Process.Bin; b != "" {
		return b, nil
	}
	return os.Executable()
}
