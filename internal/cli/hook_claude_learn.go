package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/learn/queue"
	"github.com/paige-dev/paige/internal/learnseed"
)

// learnTimeout bounds the extraction of one transcript.
const learnTimeout = 10 * time.Minute

// learnFromTranscript extracts knowledge from one queued transcript into
// the knowledge store and proposes what is new to the seed at seedPath. It
// returns a one-line summary.
func learnFromTranscript(ctx context.Context, e *env, cfg config.Config, seedPath string, it queue.Item) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, learnTimeout)
	defer cancel()
	store, err := knowledge.Open(knowledgeStoreDir(cfg))
	if err != nil {
		return "", fmt.Errorf("open knowledge store: %w", err)
	}
	calls, closeCalls := learnCallLog(ctx, cfg, "", nil)
	defer closeCalls()
	ex, err := learnExtractorFor(cfg, "", calls, nil) // the same choice as paige learn extract
	if err != nil {
		return "", err
	}
	res, err := pipeline.Run(ctx, it.TranscriptPath, pipeline.Options{Store: store, Extractor: ex, NoTrail: cfg.Learn.NoTrail})
	if err != nil {
		return "", fmt.Errorf("extract with %s: %w", ex.Name(), err)
	}
	lr, err := learnseed.Run(pipeline.Proposable(res), learnseed.Options{ // behaviour once it is a habit
		SeedPath: seedPath, Seed: seedOptions(e), StoreDir: store.Dir(),
		SessionID: it.SessionID, Method: learnseed.Method(ex.Name()),
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %d turns, %d new entries, %d proposals (%d skipped), %d decisions synced",
		ex.Name(), res.Stats.TurnsProcessed, len(res.Entries), len(lr.Proposed), lr.Skipped, lr.Synced), nil
}
