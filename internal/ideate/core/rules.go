package core

import (
	"fmt"
	"strings"
)

// CheckGates is rule 1: all three analysis gates before any generation.
func CheckGates(s *State) *Error {
	missing := s.MissingGates()
	if len(missing) == 0 {
		return nil
	}
	e := NewError(CodeGatesNotSatisfied,
		"Cannot generate premises. Missing mandatory analysis gates: %s. Call these tools first.", join(missing))
	e.MissingGates = missing
	return e
}

// CheckRadical is rule 4: a radical premise needs challenge_axiom this round.
func CheckRadical(s *State, t PremiseType) *Error {
	if t == PremiseRadical && !s.AxiomChallenged {
		return NewError(CodeAxiomNotChallenged,
			"Radical premises require calling challenge_axiom first. Challenge an axiom from extract_hidden_axioms.")
	}
	return nil
}

// CheckNegativeContext is rule 5: from round 2 on, get_negative_context
// must run before generation.
func CheckNegativeContext(s *State) *Error {
	if s.RoundNumber >= 1 && !s.NegativeContextFetched {
		return NewError(CodeNegativeContextMissing,
			"Rounds 2+ require calling get_negative_context before generating premises.")
	}
	return nil
}

// CheckBufferCapacity is rule 2: the buffer takes exactly 3 premises.
func CheckBufferCapacity(s *State) *Error {
	if s.PremisesInBuffer() >= MaxBufferSize {
		return NewError(CodeRoundBufferFull,
			"Round buffer is full (3/3). Run obviousness_test on each premise, then call present_round.")
	}
	return nil
}

// ValidateGeneration chains rules 1, 4, 5 and 2; the first failure wins.
func ValidateGeneration(s *State, t PremiseType) *Error {
	for _, e := range []*Error{CheckGates(s), CheckRadical(s, t), CheckNegativeContext(s), CheckBufferCapacity(s)} {
		if e != nil {
			return e
		}
	}
	return nil
}

// AddPremise validates generation for p (the rules, then a radical premise's
// violated_axiom) and appends it to the buffer, returning its index. The
// state is unchanged on error.
func (s *State) AddPremise(p BufferedPremise) (int, *Error) {
	if err := ValidateGeneration(s, p.PremiseType); err != nil {
		return 0, err
	}
	// The spec's schema says violated_axiom is "required for radical type",
	// which its JSON Schema cannot express: checked here, after the rules so
	// that a radical premise before challenge_axiom says so first.
	if p.PremiseType == PremiseRadical && strings.TrimSpace(p.ViolatedAxiom) == "" {
		return 0, Validation(FieldError{Field: "violated_axiom",
			Message: "is required when premise_type is 'radical' (name the axiom it violates)", Type: "missing"})
	}
	p.Tested, p.ObviousnessScore = false, 0
	s.Buffer = append(s.Buffer, p)
	return len(s.Buffer) - 1, nil
}

// ObviousnessVerdict is the outcome of one obviousness_test.
type ObviousnessVerdict struct {
	Index   int
	Score   float64
	Removed bool // score > threshold: the premise left the buffer
}

// EvaluateObviousness is rule 3, pure: INVALID_INDEX for an index outside the
// buffer (negative included), TOO_OBVIOUS (info) when score > 0.6, nil when
// the premise passes. It does not change the state.
func EvaluateObviousness(s *State, index int, score float64) *Error {
	if index < 0 || index >= s.PremisesInBuffer() {
		return NewError(CodeInvalidIndex, "Invalid premise_buffer_index=%d. Buffer has %d premise(s).", index, s.PremisesInBuffer())
	}
	if score < 0 || score > 1 {
		return Validation(FieldError{Field: "obviousness_score", Message: "must be between 0.0 and 1.0", Type: "range"})
	}
	if score > ObviousnessThreshold {
		return NewError(CodeTooObvious, "Premise #%d scored %s (> %s threshold) and was removed from the buffer. Generate a replacement.",
			index+1, fmtScore(score), fmtScore(ObviousnessThreshold))
	}
	return nil
}

// ApplyObviousness evaluates the test and applies it: a passing premise is
// marked tested, a too-obvious one is removed. The returned error is nil on
// pass, TOO_OBVIOUS on removal, or the validation error (state unchanged).
func (s *State) ApplyObviousness(index int, score float64) (ObviousnessVerdict, *Error) {
	err := EvaluateObviousness(s, index, score)
	v := ObviousnessVerdict{Index: index, Score: score}
	switch {
	case err == nil:
		s.Buffer[index].Tested = true
		s.Buffer[index].ObviousnessScore = score
	case err.Code == CodeTooObvious:
		s.Buffer = append(s.Buffer[:index:index], s.Buffer[index+1:]...)
		v.Removed = true
	}
	return v, err
}

// ValidateRoundPresentation is rule 6: exactly 3 premises, all tested.
func ValidateRoundPresentation(s *State) *Error {
	if n := s.PremisesInBuffer(); n != MaxBufferSize {
		return NewError(CodeIncompleteRound, "Round requires exactly 3 premises. Current buffer: %d/3.", n)
	}
	if u := s.Untested(); u > 0 {
		return NewError(CodeUntestedPremises, "%d premise(s) have not passed the obviousness_test.", u)
	}
	return nil
}

// ChallengeAxiom records a challenge. An axiom that extract_hidden_axioms
// never returned answers AXIOM_NOT_EXTRACTED (severity warning) and does not
// unlock radical premises; a known one (compared case- and
// space-insensitively) sets AxiomChallenged.
func (s *State) ChallengeAxiom(axiom string) *Error {
	if !s.axiomKnown(axiom) {
		e := NewError(CodeAxiomNotExtracted,
			"Axiom %q was not returned by extract_hidden_axioms, so it does not unlock radical premises. Extracted axioms: %s.",
			axiom, join(s.ExtractedAxioms))
		return e
	}
	s.AxiomChallenged = true
	return nil
}

// CheckFinalSpec refuses generate_final_spec unless the user resolved the
// session (POST user-input {type: "resolved"}).
func CheckFinalSpec(s *State) *Error {
	if !s.Resolved {
		return NewError(CodeFinalSpecNotAllowed,
			"generate_final_spec is only allowed after the user triggers 'Problem Resolved'. Present a round and wait for the user.")
	}
	return nil
}

func join(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	out := xs[0]
	for _, x := range xs[1:] {
		out += ", " + x
	}
	return out
}

func fmtScore(f float64) string { return fmt.Sprintf("%g", f) }
