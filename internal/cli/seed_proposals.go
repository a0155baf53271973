package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/seed"
)

func newSeedSetupCmd(e *env) *cobra.Command {
	var a seed.Answers
	var interactive bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "First-run setup: who you are and who your AI is (asks on a terminal, flags otherwise)",
		Long: `Writes the seed's identity and commits "Init: first-run setup completed". On a terminal
(or with --interactive) it asks each question, offering the flags' values as defaults; otherwise
--name is required. Once set up, running it again changes nothing.`,
		Args: cobra.NoArgs,
		RunE: seedRunE(e, func(_ *cobra.Command, path string, _ []string) error {
			if problems, err := seed.Check(path); len(problems) > 0 || (err != nil && !errors.Is(err, seed.ErrNoSeed)) {
				return fmt.Errorf("seed setup: %s is not valid and was left untouched: run `paige seed check`, then `paige seed repair`", path)
			}
			if !seed.IsFirstRun(path) {
				_, err := fmt.Fprintf(e.stdout, "Seed at %s is already set up; nothing changed.\n", path)
				return err
			}
			if a.Timezone == "" {
				cfg, _ := e.config()
				a.Timezone = seed.DetectTimezone(cfg.Process.TZ)
			}
			if interactive || stdinIsTerminal(e) {
				var err error
				if a, err = seed.PromptAnswers(e.stdin, e.stdout, a); err != nil {
					return err
				}
			} else if a.PrincipalName == "" {
				return fmt.Errorf("seed setup: --name is required when stdin is not a terminal (or pass --interactive)")
			}
			res, err := seed.RunSetup(path, a, a.Timezone, seedOptions(e))
			warn(e, res.Warnings)
			if err != nil {
				return err
			}
			id := res.Config.Identity
			_, err = fmt.Fprintf(e.stdout, "Seed set up: %s working with %s (%s)\n", id.AIName, id.PrincipalName, path)
			return err
		}),
	}
	f := cmd.Flags()
	f.StringVar(&a.PrincipalName, "name", "", "your name (principalName)")
	f.StringVar(&a.AIName, "ai-name", "", "your AI's name (default PAI)")
	f.StringVar(&a.Catchphrase, "catchphrase", "", `catchphrase (default "<ai-name> here, ready to go.")`)
	f.StringVar(&a.VoiceID, "voice-id", "", "voice id (default default)")
	f.StringVar(&a.ResponseStyle, "style", "", "response style: concise, detailed or adaptive (default adaptive)")
	f.StringVar(&a.Timezone, "timezone", "", "IANA timezone (default detected, else UTC)")
	f.StringVar(&a.Locale, "locale", "", "locale (default en-US)")
	f.BoolVar(&interactive, "interactive", false, "ask the questions on stdin even when it is not a terminal")
	return cmd
}

func newSeedProposalsCmd(e *env) *cobra.Command {
	return groupCmd("proposals", "Review the learnings proposed from your sessions",
		seedCmd(e, "list", "List pending proposals", cobra.NoArgs, func(path string, _ []string) error {
			s, err := readSeed(e, path)
			if err != nil {
				return err
			}
			out := seed.FormatProposals(s.State.Proposals)
			if out == "" {
				out = "No pending proposals."
			}
			_, err = fmt.Fprintln(e.stdout, out)
			return err
		}),
		newDecideCmd(e, "accept", true), newDecideCmd(e, "reject", false),
		newDecideAllCmd(e, "accept-all", true), newDecideAllCmd(e, "reject-all", false),
		seedCmd(e, "review", "Walk pending proposals: [a]ccept [r]eject [s]kip [q]uit", cobra.NoArgs, func(path string, _ []string) error {
			_, err := seed.Review(e.stdin, e.stdout, path, seedOptions(e))
			return err
		}),
		seedCmd(e, "clean", "Remove rejected proposals (commit Update:)", cobra.NoArgs, func(path string, _ []string) error {
			n := 0
			return updateSeed(e, path, seed.CategoryUpdate, func(s *seed.Seed) (string, error) {
				if n = seed.CleanRejected(s); n == 0 {
					return "", nil
				}
				return fmt.Sprintf("removed %d rejected proposal(s)", n), nil
			}, func() string { return fmt.Sprintf("Removed %d rejected proposal(s).", n) })
		}),
	)
}

func newDecideCmd(e *env, verb string, accept bool) *cobra.Command {
	return seedCmd(e, verb+" <id>", verb+" a pending proposal by id or id prefix of 4+ characters", cobra.ExactArgs(1), func(path string, args []string) error {
		decide := seed.RejectProposal
		if accept {
			decide = seed.AcceptProposal
		}
		p, warnings, err := decide(path, args[0], seedOptions(e))
		warn(e, warnings)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s %s [%s] %s\n", map[bool]string{true: "Accepted", false: "Rejected"}[accept], p.ID, p.Type, p.Content)
		return err
	})
}

func newDecideAllCmd(e *env, use string, accept bool) *cobra.Command {
	category, verb := seed.CategoryReject, "rejected"
	if accept {
		category, verb = seed.CategoryConfirm, "accepted"
	}
	return seedCmd(e, use, use[:6]+" every pending proposal", cobra.NoArgs, func(path string, _ []string) error {
		n := 0
		return updateSeed(e, path, category, func(s *seed.Seed) (string, error) {
			if n = seed.DecideAll(s, accept, seed.FormatTime(time.Now())); n == 0 {
				return "", nil
			}
			return fmt.Sprintf("%s all %d pending proposal(s)", verb, n), nil
		}, func() string {
			return fmt.Sprintf("%s %d proposal(s).", map[bool]string{true: "Accepted", false: "Rejected"}[accept], n)
		})
	})
}
