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
	svc := &memoryview.Service{Knowledge: store, SeedPath: serveSeedPath(a), Seed: &seed.Options{GitPath: appEnv(a)("PATH")}, Memory: a.mem}
	if id, err := project.ID(a.cfg.ProjectDir); err == nil {
		svc.Project = id
	}
	memoryview.AddRoutes(mux, svc, a.log.With("component", "memory-page"))
	return nil
}

// serveSeedPath is the seed `paige serve` shows and changes: PAI_SEED_PATH,
// else HOME's ~/.pai/seed.json.
func serveSeedPath(a *app) string {
	getenv := appEnv(a)
	if p := getenv("PAI_SEED_PATH"); p != "" {
		return p
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return seed.DefaultPath(home)
}

// appEnv is the configuration's lookup, or the process environment when
// the configuration was built without one (tests).
func appEnv(a *app) func(string) string {
	if a.cfg.Env != nil {
		return a.cfg.Env
	}
	return os.Getenv
}
