package cli

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
)

// learnTimeout bounds the extraction of one transcript.
const learnTimeout = 10 * time.Minute

// learnFromTranscript extracts knowledge from one queued transcript by
// running `paige learn extract -i <path>` and returns its summary.
func learnFromTranscript(ctx context.Context, e *env, _ config.Config, it claudecode.QueueItem) (string, error) {
	bin, err := paigeBinary(e)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, learnTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "learn", "extract", "-i", it.TranscriptPath)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("paige learn extract: %w: %s", err, strings.TrimSpace(out.String()))
	}
	return strings.TrimSpace(out.String()), nil
}
