package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview"
	"github.com/paige-dev/paige/internal/project"
)

// memoryCommands are `paige memory list|show|edit|forget|pin|unpin`: the
// Memory page in the terminal (internal/memoryview). Proposals are decided
// with `paige seed proposals accept|reject`, the same seed commits.
func memoryCommands(e *env) []*cobra.Command {
	var asJSON bool
	list := &cobra.Command{
		Use:   "list [words…]",
		Short: "List learned entries, seed proposals and coach memories (matching every word, when given)",
		RunE: memoryRunE(e, func(ctx context.Context, svc *memoryview.Service, args []string) error {
			v, err := svc.View(ctx, strings.Join(args, " "))
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, v)
			}
			printView(e.stdout, v)
			return nil
		}),
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the view as JSON")
	show := &cobra.Command{
		Use:   "show <id>",
		Short: "Show one learned entry, proposal or coach memory with its evidence and source session",
		Args:  cobra.ExactArgs(1),
		RunE: memoryRunE(e, func(ctx context.Context, svc *memoryview.Service, args []string) error {
			return showItem(ctx, e.stdout, svc, args[0])
		}),
	}
	edit := &cobra.Command{
		Use:   "edit <id> <content…>",
		Short: "Replace the content of a learned entry or a coach memory (mem_…)",
		Args:  cobra.MinimumNArgs(2),
		RunE: memoryRunE(e, func(ctx context.Context, svc *memoryview.Service, args []string) error {
			content := strings.Join(args[1:], " ")
			if isMemoryID(args[0]) {
				m, err := svc.EditMemory(ctx, args[0], content)
				if err == nil {
					fmt.Fprintf(e.stdout, "Edited memory %s: %s\n", m.ID, oneLine(m.Content))
				}
				return err
			}
			en, err := svc.EditEntry(args[0], content)
			if err == nil {
				fmt.Fprintf(e.stdout, "Edited %s [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
			}
			return err
		}),
	}
	forget := &cobra.Command{
		Use:   "forget <id>",
		Short: "Forget exactly one learned entry (it never comes back) or delete one coach memory (mem_…)",
		Args:  cobra.ExactArgs(1),
		RunE: memoryRunE(e, func(ctx context.Context, svc *memoryview.Service, args []string) error {
			if isMemoryID(args[0]) {
				err := svc.ForgetMemory(ctx, args[0])
				if err == nil {
					fmt.Fprintf(e.stdout, "Forgot memory %s\n", args[0])
				}
				return err
			}
			en, err := svc.ForgetEntry(args[0])
			if err == nil {
				fmt.Fprintf(e.stdout, "Forgot %s [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
			}
			return err
		}),
	}
	return []*cobra.Command{list, show, edit, forget, pinCmd(e, true), pinCmd(e, false)}
}

func pinCmd(e *env, pin bool) *cobra.Command {
	use, short, verb := "pin <id>", "Pin a learned entry: it is always put in the context first", "Pinned"
	if !pin {
		use, short, verb = "unpin <id>", "Unpin a learned entry", "Unpinned"
	}
	return &cobra.Command{
		Use: use, Short: short, Args: cobra.ExactArgs(1),
		RunE: memoryRunE(e, func(_ context.Context, svc *memoryview.Service, args []string) error {
			en, err := svc.SetPinned(args[0], pin)
			if err == nil {
				fmt.Fprintf(e.stdout, "%s %s [%s] %s\n", verb, en.ID, en.Type, oneLine(en.Content))
			}
			return err
		}),
	}
}

// isMemoryID reports whether id names a coach memory (mem_{session}_{n}).
func isMemoryID(id string) bool { return strings.HasPrefix(id, "mem_") }

// memoryRunE opens the stores (DATA_DIR/knowledge, the seed, the memory
// backend), runs f and closes them; refusals exit 1 with their message.
func memoryRunE(e *env, f func(context.Context, *memoryview.Service, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cfg, err := config.Load(e.getenv)
		if err != nil {
			return &ExitError{Code: 1, Err: err}
		}
		path, err := seedPath(cmd, e)
		if err != nil {
			return &ExitError{Code: 1, Err: err}
		}
		store, err := knowledge.Open(knowledgeStoreDir(cfg))
		if err != nil {
			return &ExitError{Code: 1, Err: fmt.Errorf("open knowledge store: %w", err)}
		}
		log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		mem, err := memory.FromConfig(cmd.Context(), cfg, log)
		if err != nil {
			return &ExitError{Code: 1, Err: fmt.Errorf("open memory: %w", err)}
		}
		defer mem.Close()
		svc := &memoryview.Service{Knowledge: store, SeedPath: path, Seed: seedOptions(e), Memory: mem}
		if id, err := project.ID(cfg.ProjectDir); err == nil {
			svc.Project = id
		}
		if err := f(cmd.Context(), svc, args); err != nil {
			return &ExitError{Code: 1, Err: err}
		}
		return nil
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printView(w io.Writer, v memoryview.View) {
	fmt.Fprintf(w, "Learned (%d):\n", len(v.Entries))
	for _, en := range v.Entries {
		flags := ""
		if en.Pinned {
			flags = " pinned"
		}
		if en.Proposal != nil {
			flags += " proposal " + en.Proposal.Status
		}
		fmt.Fprintf(w, "  %s [%s%s] %s (%s)\n", en.ID, en.Type, flags, oneLine(en.Content), en.Source)
	}
	fmt.Fprintf(w, "Proposals (%d):\n", len(v.Proposals))
	for _, p := range v.Proposals {
		fmt.Fprintf(w, "  %s [%s %s] %s (%s)\n", p.ID, p.Type, p.Status, oneLine(p.Content), p.Source)
	}
	fmt.Fprintf(w, "Coach memories (%d, %s):\n", len(v.Memories), v.MemoryStatus)
	for _, m := range v.Memories {
		fmt.Fprintf(w, "  %s [%s] %s (session %s, project %s)\n", m.ID, m.Metadata.Importance, oneLine(m.Content), m.Metadata.SessionID, m.Metadata.Project)
	}
	if m := v.More; m.Entries+m.Proposals+m.Memories > 0 {
		fmt.Fprintf(w, "Not listed: %d more entries, %d proposals, %d memories; give words to narrow them down.\n", m.Entries, m.Proposals, m.Memories)
	}
	if v.Forgotten > 0 {
		fmt.Fprintf(w, "%d forgotten entries are kept out of every context.\n", v.Forgotten)
	}
	for _, s := range v.SeedWarnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

// showItem prints the one item id names (a full id or a unique prefix).
func showItem(ctx context.Context, w io.Writer, svc *memoryview.Service, id string) error {
	v, err := svc.View(ctx, "")
	if err != nil {
		return err
	}
	var hits []string
	for _, en := range v.Entries {
		if strings.HasPrefix(en.ID, id) {
			s := fmt.Sprintf("learned %s\n  type: %s\n  content: %s\n  confidence: %.2f\n  evidence: %s\n  source: %s\n  extracted: %s\n  pinned: %v\n",
				en.ID, en.Type, en.Content, en.Confidence, en.Evidence, en.Source, en.ExtractedAt, en.Pinned)
			if en.Proposal != nil {
				s += fmt.Sprintf("  proposal: %s (%s)\n", en.Proposal.ID, en.Proposal.Status)
			}
			hits = append(hits, s)
		}
	}
	for _, p := range v.Proposals {
		if strings.HasPrefix(p.ID, id) {
			hits = append(hits, fmt.Sprintf("proposal %s\n  type: %s\n  status: %s\n  content: %s\n  source: %s\n  from entry: %s\n  extracted: %s\n  decided: %s\n",
				p.ID, p.Type, p.Status, p.Content, p.Source, p.EntryID, p.ExtractedAt, p.DecidedAt))
		}
	}
	for _, m := range v.Memories {
		if strings.HasPrefix(m.ID, id) {
			hits = append(hits, fmt.Sprintf("memory %s\n  content: %s\n  session: %s\n  project: %s\n  importance: %s\n  tags: %s\n  created: %s\n",
				m.ID, m.Content, m.Metadata.SessionID, m.Metadata.Project, m.Metadata.Importance, m.Metadata.Tags, m.Metadata.CreatedAt))
		}
	}
	switch {
	case len(hits) == 0 || len(id) < 4 && !exactHit(v, id):
		return fmt.Errorf("%w: nothing has the id %q (give 4+ characters)", memoryview.ErrNotFound, id)
	case len(hits) > 1:
		return errors.New("the id prefix " + id + " matches several items; give more of it")
	}
	_, err = io.WriteString(w, hits[0])
	return err
}

func exactHit(v memoryview.View, id string) bool {
	for _, en := range v.Entries {
		if en.ID == id {
			return true
		}
	}
	for _, p := range v.Proposals {
		if p.ID == id {
			return true
		}
	}
	for _, m := range v.Memories {
		if m.ID == id {
			return true
		}
	}
	return false
}
