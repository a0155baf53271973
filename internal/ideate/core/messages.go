package core

import (
	"fmt"
	"strings"
)

// InitialMessage is the first user message of a session (spec §6 stream).
func InitialMessage(problem string) string {
	return fmt.Sprintf("The user has submitted the following problem:\n\n%q\n\n"+
		"Begin by calling decompose_problem, map_conventional_approaches, "+
		"and extract_hidden_axioms. Then generate 3 premises for the first round.", problem)
}

// NamedScore is a validated score with the premise title it resolved to.
type NamedScore struct {
	Title   string
	Score   float64
	Comment string
}

// ScoresMessage tells the agent how the user scored the round.
func ScoresMessage(scores []NamedScore) string {
	if len(scores) == 0 {
		return "The user submitted no scores."
	}
	var b strings.Builder
	b.WriteString("The user scored the premises:\n")
	best := scores[0]
	for _, s := range scores {
		fmt.Fprintf(&b, "- %q: %.1f/10", s.Title, s.Score)
		if s.Comment != "" {
			fmt.Fprintf(&b, " — %q", s.Comment)
		}
		b.WriteString("\n")
		if s.Score > best.Score {
			best = s
		}
	}
	fmt.Fprintf(&b, "\nHighest scored: %q (%.1f/10).\n"+
		"Use this feedback to evolve the next round. "+
		"Call get_negative_context first, then generate 3 new premises.", best.Title, best.Score)
	return b.String()
}

// AskUserMessage relays the user's answer to ask_user.
func AskUserMessage(response string) string {
	return fmt.Sprintf("The user responded: %q", response)
}

// ResolvedMessage tells the agent the user resolved the session.
func ResolvedMessage(w Winner) string {
	score := "not scored"
	if w.Score != nil {
		score = fmt.Sprintf("%.1f", *w.Score)
	}
	return fmt.Sprintf("The user triggered 'Problem Resolved'. "+
		"The winning premise is: %q (score: %s). "+
		"Respond with a positive and enthusiastic message about the choice, "+
		"say you will generate a detailed spec from the winning premise, "+
		"then call generate_final_spec with the complete content in Markdown.", w.Title, score)
}

// SpecRequestMessage asks the agent for the spec it did not write after the
// user resolved the session (w may be nil for sessions resolved before the
// winner was kept in the state).
func SpecRequestMessage(w *Winner) string {
	title := "the winning premise"
	if w != nil {
		title = fmt.Sprintf("%q", w.Title)
	}
	return fmt.Sprintf("The user resolved the session with %s as the winner, but no spec was written. "+
		"Call generate_final_spec now with the complete spec in Markdown.", title)
}
