package seed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// ReviewSummary counts the decisions of one [Review].
type ReviewSummary struct {
	Accepted, Rejected, Skipped int
	// Quit reports that the user stopped (q or end of input) before the end.
	Quit bool
}

// Review walks the pending proposals of the seed at path, showing each on w
// and reading one answer per line from r: a(ccept), r(eject), s(kip) or
// q(uit). Unknown answers are asked again; end of input quits. Each decision
// is saved and committed at once, so quitting keeps what was decided. The
// seed is read without writing; a seed with invalid values is refused.
func Review(r io.Reader, w io.Writer, path string, opts *Options) (ReviewSummary, error) {
	var sum ReviewSummary
	s, problems, err := ReadOnly(path)
	switch {
	case errors.Is(err, ErrNoSeed):
		s = Defaults()
	case err != nil:
		return sum, err
	case len(problems) > 0:
		return sum, fmt.Errorf("seed: %s; nothing was changed", InvalidValuesWarning(filepath.Base(path), len(problems)))
	}
	pend := pending(s.State.Proposals)
	if len(pend) == 0 {
		fmt.Fprintln(w, "No pending proposals.")
		return sum, nil
	}
	in := bufio.NewReader(r)
	for i, p := range pend {
		conf := "N/A"
		if p.Confidence != nil {
			conf = fmt.Sprintf("%.2f", *p.Confidence)
		}
		fmt.Fprintf(w, "\n[%d/%d] %s  [%s]  confidence %s  (from %s)\n  %s\n", i+1, len(pend), p.ID, p.Type, conf, p.Source, p.Content)
		answer, ok := askDecision(in, w)
		if !ok || answer == 'q' {
			sum.Quit = true
			break
		}
		if answer == 's' {
			sum.Skipped++
			continue
		}
		if _, _, err := decideAt(path, p.ID, answer == 'a', opts); err != nil {
			return sum, err
		}
		if answer == 'a' {
			sum.Accepted++
		} else {
			sum.Rejected++
		}
	}
	fmt.Fprintf(w, "\nAccepted %d, rejected %d, skipped %d.\n", sum.Accepted, sum.Rejected, sum.Skipped)
	return sum, nil
}

// askDecision prompts until it reads a, r, s or q; ok is false at end of input.
func askDecision(in *bufio.Reader, w io.Writer) (byte, bool) {
	for {
		fmt.Fprint(w, "[a]ccept [r]eject [s]kip [q]uit? ")
		line, err := in.ReadString('\n')
		switch a := strings.ToLower(strings.TrimSpace(line)); a {
		case "a", "accept", "r", "reject", "s", "skip", "q", "quit":
			return a[0], true
		}
		if err != nil {
			return 0, false
		}
		fmt.Fprintln(w, "Please answer a, r, s or q.")
	}
}
