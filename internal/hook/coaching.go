package hook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/paige-dev/paige/internal/config"
)

// CoachingStateTimeout bounds the `paige hook coaching-state` run of
// [PaigeCoachingState]; Claude Code gives the whole SessionStart command
// 10 s.
const CoachingStateTimeout = 5 * time.Second

// PaigeCoachingState is the paige-hook binary's [Env.CoachingState]: it runs
// `paige hook coaching-state` (PAIGE_BIN when set, else the paige beside
// the running executable, else the one on PATH) with input on stdin and
// returns its stdout; the
// child's stderr and a failure to run it, as one line, go to stderr.
// paige-hook links no SQLite: the process that reads the coach's
// database starts only when a coaching marker says there is something to
// read.
func PaigeCoachingState(stderr io.Writer) func(ctx context.Context, cfg *config.Config, input []byte) string {
	return func(ctx context.Context, cfg *config.Config, input []byte) string {
		ctx, cancel := context.WithTimeout(ctx, CoachingStateTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, paigeBinary(cfg), "hook", "coaching-state")
		cmd.Stdin = bytes.NewReader(input)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, stderr
		cmd.WaitDelay = time.Second
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(stderr, "paige hook session-start: coaching state: %v\n", err)
			return ""
		}
		return out.String()
	}
}

// paigeBinary is PAIGE_BIN when set, else the paige executable beside the
// running one when there is one (make build and installs put both
// binaries in one directory, with the same extension), else "paige",
// looked up on PATH.
func paigeBinary(cfg *config.Config) string {
	if cfg.Process.Bin != "" {
		return cfg.Process.Bin
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "paige"+filepath.Ext(self))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return "paige"
}
