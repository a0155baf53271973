package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

func newLearnForgetCmd(e *env, store *string) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "forget <id | words>",
		Short: "Forget an entry (by id, unique id prefix, or the words it contains); it is never injected or learned again",
		Long: `Forget an entry by id (or a unique id prefix of at least 4 characters), or by words:
every named word must be a whole word of the entry ("it", "that", "the" name nothing).
When the words name more than one entry, the candidates are listed and you are asked to
confirm (--yes confirms without asking).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := openLearnStore(e, *store)
			if err != nil {
				return err
			}
			q := strings.Join(args, " ")
			if looksLikeID(q) {
				en, err := s.Forget(q)
				if err == nil {
					return forgotten(e, s, en)
				}
				if !errors.Is(err, knowledge.ErrNotFound) {
					return &ExitError{Code: 1, Err: fmt.Errorf("forget %s: %w", q, err)}
				}
			}
			return forgetNamed(e, s, q, yes)
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "forget every matching entry without asking")
	return cmd
}

// looksLikeID reports whether q could be an entry id or id prefix (hex and
// dashes, at least 4 characters).
func looksLikeID(q string) bool {
	if len(q) < 4 {
		return false
	}
	for _, r := range q {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

// forgetNamed forgets the active entries q names: one at once, several
// only once confirmed (yes, or "y" on stdin).
func forgetNamed(e *env, s *knowledge.Store, q string, yes bool) error {
	active, err := s.Active()
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	hits := knowledge.Named(active, q)
	if len(hits) == 0 {
		return &ExitError{Code: 1, Err: fmt.Errorf("forget %q: %w (name an id, or words the entry contains)", q, knowledge.ErrNotFound)}
	}
	if len(hits) > 1 {
		fmt.Fprintf(e.stdout, "%q names %d entries:\n", q, len(hits))
		for _, en := range hits {
			fmt.Fprintf(e.stdout, "  %s  [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
		}
		if !yes && !confirm(e, fmt.Sprintf("Forget all %d? [y/N] ", len(hits))) {
			fmt.Fprintln(e.stdout, "Nothing forgotten.")
			return nil
		}
	}
	for _, en := range hits {
		if _, err := s.Forget(en.ID); err != nil {
			return &ExitError{Code: 1, Err: fmt.Errorf("forget %s: %w", en.ID, err)}
		}
		fmt.Fprintf(e.stdout, "Forgot %s: [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
	}
	if _, err := s.WriteMarkdown(); err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	return nil
}

// confirm asks prompt and reports whether the answer read from stdin is yes.
func confirm(e *env, prompt string) bool {
	fmt.Fprint(e.stdout, prompt)
	if e.stdin == nil {
		return false
	}
	line, _ := bufio.NewReader(e.stdin).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}

func forgotten(e *env, s *knowledge.Store, en learn.Entry) error {
	if _, err := s.WriteMarkdown(); err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	fmt.Fprintf(e.stdout, "Forgot %s: [%s] %s\n", en.ID, en.Type, oneLine(en.Content))
	return nil
}
