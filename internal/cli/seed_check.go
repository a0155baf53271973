package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/seed"
)

// Exit codes of `paige seed check`.
const (
	checkInvalidValues = 1 // the seed has invalid values; repair keeps the valid ones
	checkUnreadable    = 2 // the seed cannot be read or parsed at all
)

// readSeed reads the seed without writing anything: a missing seed is the
// defaults (with a note on stderr), invalid values are fixed in memory with a
// warning on stderr, and only a seed that cannot be read or parsed is an
// error.
func readSeed(e *env, path string) (*seed.Seed, error) {
	s, problems, err := seed.ReadOnly(path)
	switch {
	case errors.Is(err, seed.ErrNoSeed):
		fmt.Fprintf(e.stderr, "note: no seed at %s yet (run `paige seed setup`); showing the defaults\n", path)
		return seed.Defaults(), nil
	case err != nil:
		return nil, fmt.Errorf("seed %s: %w (the file was left untouched; run `paige seed check`)", path, err)
	case len(problems) > 0:
		warn(e, []string{seed.InvalidValuesWarning(filepath.Base(path), len(problems)) + " (showing every valid value)"})
	}
	return s, nil
}

func newSeedCheckCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "List the seed's invalid values with their paths and reasons (never writes)",
		Long: `Reads the seed without writing anything and lists every invalid value: its JSON path,
why it is invalid, and what 'paige seed repair' would do with it. Exit status: 0 when the seed
is valid (or does not exist yet), 1 when it has invalid values, 2 when it cannot be read or
parsed at all (or needs a newer paige).`,
		Args: cobra.NoArgs,
		RunE: seedRunE(e, func(_ *cobra.Command, path string, _ []string) error {
			problems, err := seed.Check(path)
			w := e.stdout
			switch {
			case errors.Is(err, seed.ErrNoSeed):
				_, err = fmt.Fprintf(w, "No seed at %s yet (run `paige seed setup`).\n", path)
				return err
			case err != nil:
				fmt.Fprintf(w, "%s cannot be used: %v\n", path, err)
				fmt.Fprintln(w, "Nothing was changed. `paige seed repair` keeps the file aside and restores the last valid version from git history (or the defaults).")
				return &ExitError{Code: checkUnreadable}
			case len(problems) == 0:
				_, err = fmt.Fprintf(w, "%s is valid.\n", path)
				return err
			}
			fmt.Fprintf(w, "%s: %s\n", path, seed.InvalidValuesWarning(filepath.Base(path), len(problems)))
			for _, p := range problems {
				fmt.Fprintf(w, "  %s: %s [%s]; repair: %s\n", p.Path, p.Reason, p.Code, p.Fix)
			}
			fmt.Fprintln(w, "Nothing was changed. `paige seed repair` keeps every valid value, fixes these and keeps a backup.")
			return &ExitError{Code: checkInvalidValues}
		}),
	}
}

func newSeedRepairCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "repair",
		Short: "Fix the seed's invalid values, keeping every valid one and a backup (commit Repair:)",
		Long: `The only command that rewrites an invalid seed. A valid seed is left alone. A seed with
invalid values is copied aside (seed.json.corrupted, .corrupted.1, ...), rewritten with every
valid value kept and each invalid one fixed as 'paige seed check' lists, and committed as
"Repair: fixed N invalid values, kept every valid value". A seed that cannot be parsed at all
(or is missing) is copied aside and restored from the last valid version in git history, or
the defaults. A seed written by a newer paige (another major version) is refused.`,
		Args: cobra.NoArgs,
		RunE: seedRunE(e, func(_ *cobra.Command, path string, _ []string) error {
			rep, err := seed.Repair(path, seedOptions(e))
			warn(e, rep.Warnings)
			if err != nil {
				return err
			}
			for _, p := range rep.Problems {
				fmt.Fprintf(e.stdout, "  %s: %s; %s\n", p.Path, p.Reason, p.Fix)
			}
			_, err = fmt.Fprintln(e.stdout, rep.Summary())
			return err
		}),
	}
}
