package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/httpapi"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/project"
)

// wireLearn opens learn's knowledge store (DATA_DIR/knowledge) and
// database (DATA_DIR/learn.db) and mounts POST /api/extract and
// /api/chat/…. Transcripts are read only under ~/.claude/projects,
// PROJECT_DIR and PAIGE_LEARN_ROOTS (colon-separated). The extractor is
// PAIGE_EXTRACTOR's mode (auto by default) with PAIGE_LEARN_MODEL (else
// haiku with a Claude key, else none), its Claude calls recorded in
// api_call_log; the chat model is PAIGE_CHAT_MODEL (default sonnet).
func wireLearn(ctx context.Context, a *app, mux *routeMux) error {
	log := a.log.With("component", "learn")
	store, err := knowledge.Open(knowledgeStoreDir(a.cfg))
	if err != nil {
		return err
	}
	db, err := a.openedDatabases(ctx).learn.take()
	if err != nil {
		return fmt.Errorf("open learn database: %w", err)
	}
	a.onClose("learn database", func(context.Context) error { return db.Close() })
	x, err := learnExtractorFor(a.cfg, "", a.calls, log)
	if err != nil {
		return fmt.Errorf("PAIGE_LEARN_MODEL: %w", err)
	}
	model, err := chat.NewModel(a.cfg.Learn.ChatModel, llm.FromConfig(a.cfg, nil, log), a.cfg.OllamaURL)
	if err != nil {
		return fmt.Errorf("PAIGE_CHAT_MODEL: %w", err)
	}
	home := a.cfg.Process.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	roots := httpapi.DefaultRoots(home, a.cfg.ProjectDir, a.cfg.Learn.LearnRoots)
	asm := &learncontext.Assembler{Preprompts: &learncontext.Preprompts{DB: db}, Knowledge: store}
	if id, err := project.ID(a.cfg.ProjectDir); err == nil {
		asm.Project = id // the served project's knowledge, verified against it
	}
	svc := &chat.Service{DB: db, Model: model, Assembler: asm}
	httpapi.AddRoutes(mux, httpapi.Deps{Store: store, Extractor: x, Roots: roots, Chat: svc, Log: log, NoTrail: a.cfg.Learn.NoTrail})
	log.Info("learn ready", "store", store.Dir(), "extractor", x.Name(), "chat", model.Name(), "roots", roots.Dirs())
	return nil
}
