package cli

import (
	"context"
	"os"

	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/memoryview"
	"github.com/paige-dev/paige/internal/project"
	"github.com/paige-dev/paige/internal/seed"
)

// wireMemory mounts the Memory page's API (/api/memory…, see
// memoryview.AddRoutes) over learn's knowledge store (DATA_DIR/knowledge),
// the seed (PAI_SEED_PATH, else ~/.pai/seed.json) and the coach's memory
// store opened by wireCoach (a.mem; the page shows memories "off" without
// it). It must run after wireCoach.
func wireMemory(_ context.Context, a *app, mux *routeMux) error {
	store, err := knowledge.Open(knowledgeStoreDir(a.cfg))
	if err != nil {
		return err
	}
	svc := &memoryview.Service{Knowledge: store, SeedPath: serveSeedPath(a), Seed: &seed.Options{GitPath: a.cfg.Process.Path}, Memory: a.mem}
	if id, err := project.ID(a.cfg.ProjectDir); err == nil {
		svc.Project = id
	}
	memoryview.AddRoutes(mux, svc, a.log.With("component", "memory-page"))
	return nil
}

// serveSeedPath is the seed `paige serve` shows and changes: PAI_SEED_PATH,
// else HOME's ~/.pai/seed.json (the user's home when HOME is unset).
func serveSeedPath(a *app) string {
	if p := a.cfg.Learn.SeedPath; p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	return seed.DefaultPath(home)
}
