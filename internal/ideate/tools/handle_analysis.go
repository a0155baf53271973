package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/core"
)

func gateDone(e *Env, g core.AnalysisGate, what string, kv ...any) Result {
	e.State.CompleteGate(g)
	remaining := e.State.MissingGates()
	msg := fmt.Sprintf("%s recorded. Gate %s satisfied.", what, g)
	if len(remaining) == 0 {
		msg += " All 3 analysis gates satisfied: generation tools are unlocked."
	} else {
		msg += fmt.Sprintf(" Gates still missing: %v.", remaining)
	}
	if remaining == nil {
		remaining = []string{}
	}
	kv = append(kv, "gate", string(g), "gates_remaining", remaining)
	return ok(msg, kv...)
}

func decomposeProblem(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		ProblemStatement string   `json:"problem_statement"`
		Dimensions       []string `json:"dimensions"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("problem_statement", in.ProblemStatement); err != nil {
		return fail(err)
	}
	if len(in.Dimensions) == 0 {
		return fail(core.Validation(core.FieldError{Field: "dimensions", Message: "needs at least one dimension", Type: "missing"}))
	}
	return gateDone(e, core.GateDecompose, fmt.Sprintf("Problem decomposed into %d dimension(s).", len(in.Dimensions)))
}

func mapConventionalApproaches(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Approaches []map[string]any `json:"approaches"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if len(in.Approaches) == 0 {
		return fail(core.Validation(core.FieldError{Field: "approaches", Message: "needs at least one approach", Type: "missing"}))
	}
	return gateDone(e, core.GateConventional, fmt.Sprintf("%d conventional approach(es) mapped: these are what to avoid.", len(in.Approaches)))
}

func extractHiddenAxioms(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Axioms []struct {
			Axiom string `json:"axiom"`
		} `json:"axioms"`
	}](input)
	if err != nil {
		return fail(err)
	}
	var axioms []string
	for _, a := range in.Axioms {
		axioms = append(axioms, a.Axiom)
	}
	if len(axioms) == 0 || required("axioms.axiom", axioms[0]) != nil {
		return fail(core.Validation(core.FieldError{Field: "axioms", Message: "needs at least one axiom with an 'axiom' text", Type: "missing"}))
	}
	e.State.AddAxioms(axioms...)
	return gateDone(e, core.GateAxioms, fmt.Sprintf("%d axiom(s) extracted and available for challenge_axiom.", len(axioms)),
		"available_axioms", e.State.ExtractedAxioms)
}
