package cli

import (
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/learn/queue"
)

// newHookPromptSubmitCmd is `paige hook prompt-submit`, the plugin's
// UserPromptSubmit hook: it hands the transcript to the learn queue as the
// conversation goes, so a Claude Code process that is killed (no
// SessionEnd) loses nothing. It makes no model call and starts no worker:
// the next SessionEnd's worker learns from every queued transcript at once.
func newHookPromptSubmitCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "prompt-submit",
		Short: "Claude Code UserPromptSubmit hook: queue the transcript for learning (no model call)",
		Long: `Reads Claude Code's UserPromptSubmit hook JSON on stdin and queues its transcript in
DATA_DIR/learn-queue unless that transcript is already waiting there. Learning runs later, in
the worker SessionEnd starts, which reads the transcript as it is then; a transcript already
learned from at that size is skipped. Prints nothing and always exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, cfg, ok := readHookWithConfig(e, "prompt-submit")
			if !ok {
				return nil
			}
			if err := captureTranscript(learnQueue(cfg), queue.Item{TranscriptPath: in.TranscriptPath, SessionID: in.SessionID,
				Cwd: in.Cwd, Reason: "prompt"}); err != nil {
				logLearn(cfg, "capture failed", "transcript", in.TranscriptPath, "err", err)
			}
			return nil
		},
	}
}

// captureTranscript queues it unless an item for the same transcript is
// already pending (queued or being learned from).
func captureTranscript(q queue.Queue, it queue.Item) error {
	if it.TranscriptPath == "" {
		return nil
	}
	abs, err := filepath.Abs(it.TranscriptPath)
	if err != nil {
		return err
	}
	it.TranscriptPath = abs
	pending, err := q.Pending()
	if err != nil {
		return err
	}
	for _, p := range pending {
		if p.TranscriptPath == abs {
			return nil
		}
	}
	_, err = q.Enqueue(it, time.Now())
	return err
}
