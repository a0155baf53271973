package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/learn/learndb"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/learn/transcript"
	"github.com/paige-dev/paige/internal/project"
)

func newLearnCmd(e *env) *cobra.Command {
	var store string
	cmd := &cobra.Command{
		Use:   "learn",
		Short: "Learn from Claude Code transcripts (extract, show, forget knowledge)",
		Long: `Shadow learning: read Claude Code session transcripts, keep what the user taught
(preferences, corrections, rules, decisions, procedures) in a knowledge store.

The store is a directory holding entries.jsonl and knowledge.md; default
DATA_DIR/knowledge (~/.paige/knowledge). See docs/learn.md.`,
	}
	cmd.PersistentFlags().StringVar(&store, "store", "", "knowledge store directory (default DATA_DIR/knowledge, ~/.paige/knowledge)")
	cmd.AddCommand(newLearnExtractCmd(e, &store), newLearnShowCmd(e, &store), newLearnForgetCmd(e, &store),
		newLearnContextCmd(e, &store))
	return cmd
}

// openLearnStore opens the --store directory or DATA_DIR/knowledge.
func openLearnStore(e *env, flag string) (*knowledge.Store, config.Config, error) {
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return nil, cfg, &ExitError{Code: 1, Err: err}
	}
	dir := flag
	if dir == "" {
		dir = knowledgeStoreDir(cfg)
	}
	s, err := knowledge.Open(dir)
	if err != nil {
		return nil, cfg, &ExitError{Code: 1, Err: err}
	}
	return s, cfg, nil
}

// knowledgeStoreDir is learn's default store: DATA_DIR/knowledge.
func knowledgeStoreDir(cfg config.Config) string {
	return filepath.Join(cfg.DataDir, "knowledge")
}

type learnExtractOpts struct {
	inputs                           []string
	model                            string
	dryRun, asJSON, force, sidechain bool
	noTrail                          bool
	chunk                            int
}

func newLearnExtractCmd(e *env, store *string) *cobra.Command {
	var o learnExtractOpts
	cmd := &cobra.Command{
		Use:   "extract -i <file|dir|glob>...",
		Short: "Extract knowledge from transcripts into the store",
		Long: `Extract knowledge from Claude Code transcripts (JSONL) into the knowledge store.

Inputs are files, directories (searched for *.jsonl) or glob patterns; repeat -i
or pass them as arguments. A transcript already extracted (same path, size and
modification time) is skipped unless --force.

--model: heuristic (no model), haiku, sonnet, opus, claude:<model id>, ollama:<name>.
Default: PAIGE_LEARN_MODEL, else haiku when ANTHROPIC_API_KEY is set, else none.
PAIGE_EXTRACTOR (auto, the default; heuristic; model) says where the model is
used: auto runs the heuristics on every turn and the model only on the turns
the classifier flags as candidates; model sends it every signal turn.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.inputs = append(o.inputs, args...)
			return learnExtract(cmd.Context(), e, *store, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.inputs, "input", "i", nil, "transcript file, directory or glob (repeatable)")
	f.StringVarP(&o.model, "model", "m", "", "heuristic | haiku | sonnet | opus | claude:<id> | ollama:<name>")
	f.BoolVar(&o.dryRun, "dry-run", false, "extract and report, write nothing")
	f.BoolVar(&o.asJSON, "json", false, "print the summary as JSON (no progress bar)")
	f.BoolVar(&o.force, "force", false, "extract transcripts already extracted")
	f.BoolVar(&o.sidechain, "include-sidechain", false, "no effect: subagent trails are always mined (kept for scripts)")
	f.IntVar(&o.chunk, "chunk-size", pipeline.DefaultChunkSize, "signal turns per extractor call")
	f.BoolVar(&o.noTrail, "no-trail", false, "learn from what was said only, not from the tool trail (also PAIGE_LEARN_TRAIL=off)")
	return cmd
}

func learnExtract(ctx context.Context, e *env, storeFlag string, o learnExtractOpts) error {
	if len(o.inputs) == 0 {
		return &ExitError{Code: 2, Err: errors.New("no transcripts: pass -i <file|dir|glob>")}
	}
	paths, err := pipeline.Expand(o.inputs)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	store, cfg, err := openLearnStore(e, storeFlag)
	if err != nil {
		return err
	}
	calls, closeCalls := learnCallLog(ctx, cfg, o.model, nil)
	defer closeCalls()
	x, err := learnExtractorFor(cfg, o.model, calls, nil)
	if err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	bar := learnProgress(e.stderr, len(paths), o.asJSON)
	opts := pipeline.Options{Store: store, Extractor: x, ChunkSize: o.chunk, Force: o.force, DryRun: o.dryRun,
		Reader: &transcript.Options{IncludeSidechain: o.sidechain}, NoTrail: o.noTrail || cfg.Learn.NoTrail}
	sum, err := pipeline.RunMany(ctx, paths, opts, func(pipeline.Result, error) {
		if bar != nil {
			_ = bar.Add(1)
		}
	})
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return err
		}
	} else {
		printLearnSummary(e.stdout, sum, x.Name(), store.Dir(), o.dryRun)
	}
	for _, f := range sum.Failed {
		fmt.Fprintf(e.stderr, "paige learn: %s: %s\n", f.Path, f.Error)
	}
	if len(sum.Failed) > 0 {
		return &ExitError{Code: 1}
	}
	return nil
}

// learnProgress returns a progress bar on w when w is a terminal, there is
// more than one transcript and JSON output is off; else nil.
func learnProgress(w io.Writer, n int, asJSON bool) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	return newLearnBar(w, n, asJSON, ok && term.IsTerminal(int(f.Fd())))
}

// newLearnBar is learnProgress with the terminal test done by the caller.
func newLearnBar(w io.Writer, n int, asJSON, tty bool) *progressbar.ProgressBar {
	if asJSON || n < 2 || !tty {
		return nil
	}
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("transcripts"),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(0))
}

func printLearnSummary(w io.Writer, sum pipeline.Summary, model, dir string, dryRun bool) {
	st := sum.Stats
	fmt.Fprintf(w, "Transcripts: %d (%d already extracted, %d failed)  model: %s  store: %s\n", sum.Files, sum.Skipped, len(sum.Failed), model, dir)
	fmt.Fprintf(w, "Processed %d turns (%d signal, %d noise)\n", st.TurnsProcessed, st.SignalTurns, st.NoiseTurns)
	fmt.Fprintf(w, "Extracted %d items, %d duplicates skipped\n", st.EntriesExtracted, st.DuplicatesSkipped)
	if st.BehaviourEntries > 0 || st.EntriesUpdated > 0 {
		fmt.Fprintf(w, "From the tool trail: %d new, %d seen again (evidence and confidence grew)\n", st.BehaviourEntries, st.EntriesUpdated)
	}
	if st.EntriesForgotten > 0 {
		fmt.Fprintf(w, "Forgot %d entries (@forget)\n", st.EntriesForgotten)
	}
	for _, f := range sum.AmbiguousForgets {
		fmt.Fprintf(w, "@forget %q names %d entries, forgot none; pick one with paige learn forget <id>:\n", f.Request, len(f.Candidates))
		for _, en := range f.Candidates {
			fmt.Fprintf(w, "  %s  [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
		}
	}
	if dryRun {
		fmt.Fprintf(w, "%d new entries (dry run: nothing written)\n", len(sum.Entries))
	} else {
		fmt.Fprintf(w, "%d new entries written\n", len(sum.Entries))
	}
	for _, en := range sum.Entries {
		fmt.Fprintf(w, "  [%s] %s (confidence: %.2g)\n", en.Type, oneLine(en.Content), en.Confidence)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func newLearnShowCmd(e *env, store *string) *cobra.Command {
	var asJSON, all, md bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "List the learned knowledge (active entries; --all for history)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, _, err := openLearnStore(e, *store)
			if err != nil {
				return err
			}
			entries, err := s.Entries()
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			if md {
				_, err := io.WriteString(e.stdout, knowledge.RenderMarkdown(entries))
				return err
			}
			if !all {
				entries = knowledge.ActiveOnly(entries)
			}
			if entries == nil {
				entries = []learn.Entry{}
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(entries)
			}
			if len(entries) == 0 {
				fmt.Fprintf(e.stdout, "No knowledge yet in %s. Run: paige learn extract -i <transcripts>\n", s.Dir())
				return nil
			}
			for _, en := range entries {
				state := ""
				if en.Forgotten {
					state = " (forgotten)"
				} else if en.SupersededBy != "" {
					state = " (superseded by " + en.SupersededBy + ")"
				} else if !en.Established() {
					state = " (evidence only: " + en.Evidence + ")"
				}
				fmt.Fprintf(e.stdout, "%s  [%s] %s (%.2g, %s)%s\n", en.ID, en.Type, oneLine(en.Content), en.Confidence, en.Source, state)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print entries as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "include forgotten and superseded entries")
	cmd.Flags().BoolVar(&md, "md", false, "print knowledge.md (active entries by section)")
	return cmd
}

func newLearnContextCmd(e *env, store *string) *cobra.Command {
	var asJSON, why bool
	var budget int
	var dir string
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Print the system prompt the learn chat assembles (preprompts from DATA_DIR/learn.db + knowledge)",
		Long: `Print the system prompt the learn chat assembles from the preprompts in
DATA_DIR/learn.db and the knowledge store.

With --project DIR only that project's entries (and those holding everywhere)
are taken, and its procedures are verified against the repository first: one
whose script, Makefile target or file is gone is stale and left out. With --why
a context receipt follows: every entry considered, whether it went in, why and
at what token cost, and why each other one was left out.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, cfg, err := openLearnStore(e, *store)
			if err != nil {
				return err
			}
			db, err := learndb.Open(cmd.Context(), filepath.Join(cfg.DataDir, learndb.FileName))
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			defer db.Close()
			a := &learncontext.Assembler{Preprompts: &learncontext.Preprompts{DB: db}, Knowledge: s, TokenBudget: budget}
			if dir != "" {
				abs, err := filepath.Abs(dir)
				if err != nil {
					return &ExitError{Code: 2, Err: err}
				}
				a.Project = project.Resolve(abs)
			}
			asm, err := a.Assemble(cmd.Context())
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(asm)
			}
			m := asm.Metadata
			var left []string
			for _, l := range m.LeftOut {
				left = append(left, fmt.Sprintf("%d %s", l.Items, l.Section))
			}
			note := ""
			if len(left) > 0 {
				note = "; left out to fit the budget: " + strings.Join(left, ", ")
			}
			fmt.Fprintf(e.stdout, "%s\n\n(%d preprompts, %d entries, %d rules, ~%d of %d tokens%s)\n", asm.SystemPrompt,
				m.PrepromptsLoaded, m.KnowledgeEntries, m.RulesCount, m.EstimatedTokens, budget, note)
			if why {
				printReceipt(e.stdout, asm.Receipt)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print sections and metadata as JSON")
	cmd.Flags().IntVar(&budget, "budget", learncontext.DefaultTokenBudget, "token budget")
	cmd.Flags().BoolVar(&why, "why", false, "print the context receipt: what went in, why, at what token cost, and what was left out")
	cmd.Flags().StringVar(&dir, "project", "", "assemble for the project of this directory (its repository), verifying its procedures")
	return cmd
}

// printReceipt prints a context receipt: the entries taken, in order, with
// their token cost and why, then those left out and why.
func printReceipt(w io.Writer, items []learncontext.ReceiptItem) {
	fmt.Fprintln(w, "\nContext receipt:")
	total := 0
	for _, it := range items {
		if it.LeftOut == "" {
			total += it.Tokens
			fmt.Fprintf(w, "  + %-8s %4d tokens  %s  (%s)\n", shortID(it.ID), it.Tokens, shortLine(it.Text), it.Why)
		}
	}
	fmt.Fprintf(w, "  = %d tokens of learned knowledge\n", total)
	for _, it := range items {
		if it.LeftOut != "" {
			fmt.Fprintf(w, "  - %-8s left out: %s  %s\n", shortID(it.ID), it.LeftOut, shortLine(it.Text))
		}
	}
}

func shortID(id string) string { return id[:min(len(id), 8)] }

// shortLine is s on one line, at most 100 characters.
func shortLine(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}
