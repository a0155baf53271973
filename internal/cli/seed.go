package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/seed"
)

// errNoHome is reported when no seed path can be derived.
var errNoHome = errors.New("cannot locate the seed: HOME is not set (use --seed PATH or PAI_SEED_PATH)")

// seedPath resolves the seed file: --seed, then $PAI_SEED_PATH, then
// $HOME/.pai/seed.json.
func seedPath(cmd *cobra.Command, e *env) (string, error) {
	if f := cmd.Flag("seed"); f != nil && f.Value.String() != "" {
		return f.Value.String(), nil
	}
	cfg, _ := e.config() // a malformed variable elsewhere must not hide the seed
	if cfg.Learn.SeedPath == "" {
		return "", errNoHome
	}
	return cfg.Learn.SeedPath, nil
}

// seedOptions finds git on the environment's PATH.
func seedOptions(e *env) *seed.Options {
	cfg, _ := e.config()
	return &seed.Options{GitPath: cfg.Process.Path}
}

func warn(e *env, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
}

// updateSeed commits change to the seed at path as one commit of category,
// prints the warnings and then, once it went through, the line done gives.
func updateSeed(e *env, path, category string, change func(*seed.Seed) (string, error), done func() string) error {
	_, warnings, err := seed.Update(path, seedOptions(e), category, change)
	warn(e, warnings)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, done())
	return err
}

// seedRunE adapts a seed subcommand: it resolves the path first.
func seedRunE(e *env, run func(cmd *cobra.Command, path string, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		path, err := seedPath(cmd, e)
		if err != nil {
			return err
		}
		return run(cmd, path, args)
	}
}

// seedCmd is a seed subcommand use (short: its help line, args: what it
// accepts) whose run gets the seed's resolved path.
func seedCmd(e *env, use, short string, args cobra.PositionalArgs, run func(path string, args []string) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE:  seedRunE(e, func(_ *cobra.Command, path string, args []string) error { return run(path, args) }),
	}
}

func newSeedCmd(e *env) *cobra.Command {
	cmd := groupCmd("seed", "The personal seed (~/.pai/seed.json): identity, learnings, proposals, state",
		newSeedShowCmd(e), newSeedStatusCmd(e), newSeedSetupCmd(e),
		newSeedLearnCmd(e), newSeedForgetCmd(e), newSeedProposalsCmd(e),
		newSeedCheckCmd(e), newSeedRepairCmd(e), newSeedSchemaCmd(e), newSeedPathCmd(e),
	)
	cmd.PersistentFlags().String("seed", "", "seed file (default $PAI_SEED_PATH or ~/.pai/seed.json)")
	return cmd
}

func newSeedShowCmd(e *env) *cobra.Command {
	var asJSON, compact bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the seed as session context (or as JSON with --json); never writes",
		Long: `Prints the seed as session context, or its JSON with --json. It never writes: a missing
seed shows the defaults, a seed with invalid values shows every valid value with a warning on
stderr (see 'paige seed check').`,
		Args: cobra.NoArgs,
		RunE: seedRunE(e, func(_ *cobra.Command, path string, _ []string) error {
			s, err := readSeed(e, path)
			if err != nil {
				return err
			}
			if asJSON {
				b, err := seed.Encode(s)
				if err != nil {
					return err
				}
				_, err = e.stdout.Write(b)
				return err
			}
			o := seed.ContextOptions{MaxChars: 1 << 30}
			if compact {
				o.Format = seed.LayoutCompact
			}
			_, err = fmt.Fprintln(e.stdout, seed.RenderContext(s, o))
			return err
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the seed file's JSON")
	cmd.Flags().BoolVar(&compact, "compact", false, "use the compact layout")
	return cmd
}

func newSeedStatusCmd(e *env) *cobra.Command {
	return seedCmd(e, "status", "Report the seed's path, validity, version, git state and counts (never writes)", cobra.NoArgs, func(path string, _ []string) error {
		w := e.stdout
		fmt.Fprintf(w, "Path: %s\n", path)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(w, "Exists: no (it is created by `paige seed setup` or the first change)")
			return nil
		}
		res, err := seed.Peek(path)
		if le := (*seed.LoadError)(nil); errors.As(err, &le) {
			fmt.Fprintf(w, "Valid: no (%s: %s)\n", le.Code, le.Message)
			for _, d := range le.Details {
				fmt.Fprintf(w, "  %s: %s [%s]\n", d.Path, d.Message, d.Code)
			}
			return nil
		} else if err != nil {
			return err
		}
		s := res.Seed
		fmt.Fprintf(w, "Valid: yes\nVersion: %s\n", s.Version)
		fmt.Fprintf(w, "Git: %s\n", gitState(filepath.Dir(path)))
		fmt.Fprintf(w, "Setup: %s\n", map[bool]string{true: "needed (run paige seed setup)", false: "done"}[s.Identity.PrincipalName == seed.DefaultPrincipalName])
		fmt.Fprintf(w, "Learnings: %s, %s, %d self-knowledge\n",
			seedCount(len(s.Learned.Patterns), "pattern"), seedCount(len(s.Learned.Insights), "insight"), len(s.Learned.SelfKnowledge))
		fmt.Fprintf(w, "Pending proposals: %d\n", len(seed.PendingIDs(s)))
		for _, wn := range res.Warnings {
			fmt.Fprintf(w, "Warning: %s\n", wn)
		}
		return nil
	})
}

func gitState(dir string) string {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return "no repository"
	}
	return "repository at " + dir
}

func newSeedLearnCmd(e *env) *cobra.Command {
	return seedCmd(e, "learn <pattern|insight|self_knowledge> <content...>", "Add a confirmed learning (commit Learn:)", cobra.MinimumNArgs(2), func(path string, args []string) error {
		typ := strings.ReplaceAll(strings.ToLower(args[0]), "-", "_")
		if typ == "selfknowledge" {
			typ = seed.TypeSelfKnowledge
		}
		var added seed.Learning
		return updateSeed(e, path, seed.CategoryLearn, func(s *seed.Seed) (string, error) {
			l, err := seed.AddLearning(s, typ, strings.Join(args[1:], " "), seed.FormatTime(time.Now()))
			added = l
			return fmt.Sprintf("added %s %q", typ, l.Content), err
		}, func() string { return fmt.Sprintf("Learned %s %s: %s", typ, added.ID, added.Content) })
	})
}

func newSeedForgetCmd(e *env) *cobra.Command {
	return seedCmd(e, "forget <id>", "Remove a learning by id or id prefix of 4+ characters (commit Update:)", cobra.ExactArgs(1), func(path string, args []string) error {
		var gone seed.Learning
		return updateSeed(e, path, seed.CategoryUpdate, func(s *seed.Seed) (string, error) {
			l, err := seed.Forget(s, args[0])
			gone = l
			return "forgot learning " + l.ID, err
		}, func() string { return fmt.Sprintf("Forgot %s: %s", gone.ID, gone.Content) })
	})
}

func newSeedSchemaCmd(e *env) *cobra.Command {
	var print bool
	cmd := seedCmd(e, "schema", "Write the seed's JSON Schema (draft-07) to seed.schema.json beside the seed", cobra.NoArgs, func(path string, _ []string) error {
		if print {
			b, err := seed.JSONSchema()
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(b)
			return err
		}
		out, err := seed.WriteSchemaBeside(path)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "Wrote %s\n", out)
		return err
	})
	cmd.Flags().BoolVar(&print, "print", false, "print the schema instead of writing it")
	return cmd
}

func newSeedPathCmd(e *env) *cobra.Command {
	return seedCmd(e, "path", "Print the seed file's path", cobra.NoArgs, func(path string, _ []string) error {
		_, err := fmt.Fprintln(e.stdout, path)
		return err
	})
}

// stdinIsTerminal reports whether e.stdin is an interactive terminal.
func stdinIsTerminal(e *env) bool {
	f, ok := e.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// seedCount renders n noun with a plural s unless n is 1.
func seedCount(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
