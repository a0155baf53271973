package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
)

func newMemoryCmd(e *env) *cobra.Command {
	c := groupCmd("memory", "See and control what Paige remembers: learned entries, seed proposals and coaching memories",
		append([]*cobra.Command{newMemorySearchCmd(e)}, memoryCommands(e)...)...)
	c.PersistentFlags().String("seed", "", "seed file (default $PAI_SEED_PATH, else ~/.pai/seed.json)")
	return c
}

func newMemorySearchCmd(e *env) *cobra.Command {
	var n int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search <query>…",
		Short: "Search coach session memories and learn knowledge together, nearest first",
		Long: `Searches the coach's session wrap-up memories (the memory backend: DATA_DIR/memory.db or
ChromaDB) and the active entries of the learn knowledge store (DATA_DIR/knowledge) with the
same embedder (PAIGE_EMBEDDER), and prints the nearest, each with its source and distance.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return memorySearch(cmd, e, strings.Join(args, " "), n, asJSON)
		},
	}
	cmd.Flags().IntVarP(&n, "limit", "n", memory.DefaultNResults, "how many results")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the hits as JSON")
	return cmd
}

func memorySearch(cmd *cobra.Command, e *env, query string, n int, asJSON bool) error {
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	ctx := cmd.Context()
	emb, err := embedding.FromConfig(cfg)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	mem, err := memory.FromConfig(ctx, cfg, log)
	if err != nil {
		return &ExitError{Code: 1, Err: fmt.Errorf("open memory: %w", err)}
	}
	defer mem.Close()
	store, err := knowledge.Open(knowledgeStoreDir(cfg))
	if err != nil {
		return &ExitError{Code: 1, Err: fmt.Errorf("open knowledge store: %w", err)}
	}
	entries, err := store.Active()
	if err != nil {
		return &ExitError{Code: 1, Err: fmt.Errorf("read knowledge: %w", err)}
	}
	hits, err := learnseed.Search(ctx, query, n, mem, entries, emb)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	if asJSON {
		if hits == nil {
			hits = []learnseed.Hit{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(hits)
	}
	if len(hits) == 0 {
		fmt.Fprintln(e.stdout, "Nothing found.")
		return nil
	}
	for i, h := range hits {
		fmt.Fprintf(e.stdout, "%2d. [%s %s] %s\n    %s · distance %.3f\n", i+1, h.Source, h.Kind, h.Content, h.Origin, h.Distance)
	}
	return nil
}
