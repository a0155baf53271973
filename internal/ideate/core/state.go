package core

import (
	"slices"
	"strings"
	"time"
)

// PremiseText is what the agent wrote of a premise: the same JSON fields
// in a buffered premise and in a premises event's card.
type PremiseText struct {
	Title             string      `json:"title"`
	Body              string      `json:"body"`
	PremiseType       PremiseType `json:"premise_type"`
	DirectionHint     string      `json:"direction_hint,omitempty"`
	ViolatedAxiom     string      `json:"violated_axiom,omitempty"`
	CrossDomainSource string      `json:"cross_domain_source,omitempty"`
}

// Lineage names the premises a premise came from. SourceTitle is the
// title of the premise a mutation evolved from (mutate_premise);
// PrimaryTitle is the primary parent of a combination (cross_pollinate).
// Both are empty for a fresh premise. SecondaryTitles are the other
// parents of a combination (cross_pollinate secondary_premises).
type Lineage struct {
	SourceTitle     string   `json:"source_title,omitempty"`
	PrimaryTitle    string   `json:"primary_title,omitempty"`
	SecondaryTitles []string `json:"secondary_titles,omitempty"`
}

// BufferedPremise is a premise generated this round, waiting for
// present_round. Its obviousness result travels with it.
type BufferedPremise struct {
	PremiseText
	// Source is the tool that produced it (generate_premise, mutate_premise, cross_pollinate).
	Source string `json:"source"`
	Lineage
	// Tested is set once obviousness_test passed it; ObviousnessScore is its score.
	Tested           bool    `json:"tested"`
	ObviousnessScore float64 `json:"obviousness_score"`
}

// Winner is the premise the user picked when resolving the session.
type Winner struct {
	PremiseID string   `json:"premise_id,omitempty"`
	Title     string   `json:"title"`
	Index     int      `json:"index"`
	Score     *float64 `json:"score,omitempty"`
}

// State is the per-session enforcement state. It is a plain value (JSON
// serialisable, persisted after every turn); its methods never do I/O. The
// zero State is a fresh session. A State is not safe for concurrent use: the
// shell gives each session's state to one run at a time.
type State struct {
	CompletedGates []AnalysisGate    `json:"completed_gates"`
	Buffer         []BufferedPremise `json:"buffer"`
	// RoundNumber counts the rounds presented so far (0 before the first).
	RoundNumber int `json:"round_number"`
	// ExtractedAxioms are the axioms extract_hidden_axioms returned.
	ExtractedAxioms []string `json:"extracted_axioms"`
	// AxiomChallenged: challenge_axiom succeeded this round (unlocks radical).
	AxiomChallenged bool `json:"axiom_challenged"`
	// NegativeContextFetched: get_negative_context ran this round.
	NegativeContextFetched bool `json:"negative_context_fetched"`
	// Awaiting is the user input the session is paused for.
	Awaiting Awaiting `json:"awaiting"`
	// Resolved is set when the user triggered "Problem Resolved".
	Resolved bool    `json:"resolved"`
	Winner   *Winner `json:"winner,omitempty"`
	// SpecGenerated is set once generate_final_spec succeeded.
	SpecGenerated bool `json:"spec_generated"`
	// Pending is the prompt the session is paused on (premises, ask_user or
	// final_spec), re-sent when a client streams a paused session.
	Pending *Event `json:"pending,omitempty"`
	// TurnPaused: the model's last turn stopped with pause_turn (a server
	// tool such as web_search still working). The history then ends with
	// that assistant turn, saved, and the next model call continues it, so
	// a crash never pays for the same web search twice.
	TurnPaused bool `json:"turn_paused,omitempty"`
	// Run is what the last run left behind, RunAt when it last changed
	// (the last persisted turn of a running run), and RunError the error a
	// failed run ended with.
	Run      RunState  `json:"run,omitempty"`
	RunAt    time.Time `json:"run_at,omitzero"`
	RunError *RunError `json:"run_error,omitempty"`
	// Answers are the agent's ask_user questions with the user's answers.
	Answers []Answer `json:"answers,omitempty"`
}

// HasGate reports whether gate has completed.
func (s *State) HasGate(g AnalysisGate) bool { return slices.Contains(s.CompletedGates, g) }

// CompleteGate records g as completed; completing it again changes nothing.
func (s *State) CompleteGate(g AnalysisGate) {
	if !s.HasGate(g) {
		s.CompletedGates = append(s.CompletedGates, g)
	}
}

// MissingGates lists the gates not yet completed, in canonical order.
func (s *State) MissingGates() []string {
	var out []string
	for _, g := range AllGates {
		if !s.HasGate(g) {
			out = append(out, string(g))
		}
	}
	return out
}

// AllGatesSatisfied reports whether all three analysis gates completed.
func (s *State) AllGatesSatisfied() bool { return len(s.MissingGates()) == 0 }

// PremisesInBuffer is the number of premises in this round's buffer.
func (s *State) PremisesInBuffer() int { return len(s.Buffer) }

// PremisesRemaining is how many more premises the round needs.
func (s *State) PremisesRemaining() int { return MaxBufferSize - len(s.Buffer) }

// Untested counts buffered premises that have not passed obviousness_test.
func (s *State) Untested() int {
	n := 0
	for _, p := range s.Buffer {
		if !p.Tested {
			n++
		}
	}
	return n
}

// AllPremisesTested reports whether every buffered premise passed the test.
func (s *State) AllPremisesTested() bool { return s.Untested() == 0 }

// AddAxioms records extracted axioms, skipping blanks and duplicates.
func (s *State) AddAxioms(axioms ...string) {
	for _, a := range axioms {
		a = strings.TrimSpace(a)
		if a != "" && !s.axiomKnown(a) {
			s.ExtractedAxioms = append(s.ExtractedAxioms, a)
		}
	}
}

func (s *State) axiomKnown(a string) bool {
	key := normalize(a)
	for _, x := range s.ExtractedAxioms {
		if normalize(x) == key {
			return true
		}
	}
	return false
}

// ResetForNextRound clears the per-round flags and the buffer after
// present_round.
func (s *State) ResetForNextRound() {
	s.Buffer = nil
	s.AxiomChallenged = false
	s.NegativeContextFetched = false
}

func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
