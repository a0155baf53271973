package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func gated() *State {
	s := &State{}
	for _, g := range AllGates {
		s.CompleteGate(g)
	}
	s.AddAxioms("Users want speed")
	return s
}

func premise(title string, t PremiseType) BufferedPremise {
	return BufferedPremise{PremiseText: PremiseText{Title: title, Body: "b", PremiseType: t}, Source: "generate_premise"}
}

func full(tested bool) *State {
	s := gated()
	for _, t := range []string{"a", "b", "c"} {
		if _, err := s.AddPremise(premise(t, PremiseInitial)); err != nil {
			panic(err)
		}
	}
	if tested {
		for i := range s.Buffer {
			s.Buffer[i].Tested = true
		}
	}
	return s
}

func code(e *Error) Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func TestValidateGeneration(t *testing.T) {
	tests := []struct {
		name  string
		state func() *State
		typ   PremiseType
		want  Code
	}{
		{"no gates", func() *State { return &State{} }, PremiseInitial, CodeGatesNotSatisfied},
		{"two gates", func() *State {
			s := &State{}
			s.CompleteGate(GateDecompose)
			s.CompleteGate(GateAxioms)
			return s
		}, PremiseInitial, CodeGatesNotSatisfied},
		{"all gates", gated, PremiseInitial, ""},
		{"radical without challenge", gated, PremiseRadical, CodeAxiomNotChallenged},
		{"radical after challenge", func() *State { s := gated(); s.AxiomChallenged = true; return s }, PremiseRadical, ""},
		{"round 2 without negative context", func() *State { s := gated(); s.RoundNumber = 1; return s }, PremiseInitial, CodeNegativeContextMissing},
		{"round 2 with negative context", func() *State {
			s := gated()
			s.RoundNumber, s.NegativeContextFetched = 1, true
			return s
		}, PremiseConservative, ""},
		{"fourth premise", func() *State { return full(false) }, PremiseInitial, CodeRoundBufferFull},
		{"gates checked before buffer", func() *State { s := full(false); s.CompletedGates = nil; return s }, PremiseInitial, CodeGatesNotSatisfied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(ValidateGeneration(tt.state(), tt.typ)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMissingGatesListed(t *testing.T) {
	s := &State{}
	s.CompleteGate(GateConventional)
	s.CompleteGate(GateConventional)
	err := CheckGates(s)
	want := []string{"decompose_problem", "extract_hidden_axioms"}
	if diff := cmp.Diff(want, err.MissingGates); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, err.ToolResult()["missing_gates"]); diff != "" {
		t.Errorf("tool result (-want +got):\n%s", diff)
	}
}

func TestBufferOfExactlyThree(t *testing.T) {
	s := gated()
	for i := range 3 {
		idx, err := s.AddPremise(premise("p", PremiseInitial))
		if err != nil || idx != i {
			t.Fatalf("premise %d: got index %d err %v", i, idx, err)
		}
		if got, want := s.PremisesRemaining(), 2-i; got != want {
			t.Errorf("remaining got %d, want %d", got, want)
		}
	}
	if _, err := s.AddPremise(premise("p4", PremiseInitial)); code(err) != CodeRoundBufferFull {
		t.Fatalf("4th premise: got %v, want ROUND_BUFFER_FULL", err)
	}
	if got := s.PremisesInBuffer(); got != 3 {
		t.Errorf("buffer got %d, want 3 (unchanged on error)", got)
	}
}

func TestObviousness(t *testing.T) {
	tests := []struct {
		name       string
		index      int
		score      float64
		want       Code
		wantBuffer int
		wantTested int
	}{
		{"0.0 passes", 0, 0.0, "", 3, 1},
		{"0.6 passes", 1, 0.6, "", 3, 1},
		{"0.61 fails", 1, 0.61, CodeTooObvious, 2, 0},
		{"1.0 fails", 2, 1.0, CodeTooObvious, 2, 0},
		{"index 3 invalid", 3, 0.1, CodeInvalidIndex, 3, 0},
		{"negative index invalid", -1, 0.1, CodeInvalidIndex, 3, 0},
		{"score above 1 invalid", 0, 1.5, CodeValidation, 3, 0},
		{"negative score invalid", 0, -0.1, CodeValidation, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := full(false)
			v, err := s.ApplyObviousness(tt.index, tt.score)
			if got := code(err); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if v.Removed != (tt.want == CodeTooObvious) {
				t.Errorf("removed got %v", v.Removed)
			}
			if got := s.PremisesInBuffer(); got != tt.wantBuffer {
				t.Errorf("buffer got %d, want %d", got, tt.wantBuffer)
			}
			if got := 3 - s.Untested() - (3 - s.PremisesInBuffer()); got != tt.wantTested {
				t.Errorf("tested got %d, want %d", got, tt.wantTested)
			}
		})
	}
}

func TestTooObviousIsInfoAndRemovesTheRightPremise(t *testing.T) {
	s := full(false)
	s.ApplyObviousness(0, 0.2)
	_, err := s.ApplyObviousness(1, 0.9)
	if err.Severity != SevInfo || err.Status != 200 || err.ToolResult()["status"] != "rejected" {
		t.Errorf("got %+v, want info/200/rejected", err)
	}
	var titles []string
	for _, p := range s.Buffer {
		titles = append(titles, p.Title)
	}
	if diff := cmp.Diff([]string{"a", "c"}, titles); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !s.Buffer[0].Tested || s.Buffer[1].Tested {
		t.Errorf("tested marks moved: %+v", s.Buffer)
	}
}

func TestValidateRoundPresentation(t *testing.T) {
	partial := full(false)
	partial.Buffer[0].Tested, partial.Buffer[1].Tested = true, true
	two := gated()
	two.AddPremise(premise("x", PremiseInitial))
	two.AddPremise(premise("y", PremiseInitial))
	tests := []struct {
		name  string
		state *State
		want  Code
	}{
		{"empty", gated(), CodeIncompleteRound},
		{"two", two, CodeIncompleteRound},
		{"three untested", full(false), CodeUntestedPremises},
		{"one untested", partial, CodeUntestedPremises},
		{"three tested", full(true), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(ValidateRoundPresentation(tt.state)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if msg := ValidateRoundPresentation(partial).Message; msg != "1 premise(s) have not passed the obviousness_test." {
		t.Errorf("got %q", msg)
	}
}

func TestChallengeAxiom(t *testing.T) {
	s := gated()
	err := s.ChallengeAxiom("Nobody reads manuals")
	if code(err) != CodeAxiomNotExtracted || err.Severity != SevWarning || !err.Recoverable() {
		t.Fatalf("got %v, want warning AXIOM_NOT_EXTRACTED", err)
	}
	if err.ToolResult()["status"] != "warning" {
		t.Errorf("tool result status got %v, want warning", err.ToolResult()["status"])
	}
	if s.AxiomChallenged {
		t.Fatal("unknown axiom unlocked radical premises")
	}
	if err := s.ChallengeAxiom("  users WANT   speed "); err != nil {
		t.Fatalf("known axiom: got %v", err)
	}
	if !s.AxiomChallenged {
		t.Fatal("known axiom did not unlock radical")
	}
}

func TestResetForNextRound(t *testing.T) {
	s := full(true)
	s.AxiomChallenged, s.NegativeContextFetched = true, true
	s.ResetForNextRound()
	if s.PremisesInBuffer() != 0 || s.AxiomChallenged || s.NegativeContextFetched {
		t.Errorf("not reset: %+v", s)
	}
	if !s.AllGatesSatisfied() || len(s.ExtractedAxioms) != 1 {
		t.Errorf("gates or axioms lost: %+v", s)
	}
}

func TestCheckFinalSpec(t *testing.T) {
	s := full(true)
	if code(CheckFinalSpec(s)) != CodeFinalSpecNotAllowed {
		t.Fatal("final spec allowed before resolution")
	}
	s.Resolved = true
	if err := CheckFinalSpec(s); err != nil {
		t.Fatalf("got %v after resolution", err)
	}
}
