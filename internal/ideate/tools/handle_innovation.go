package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/core"
)

func challengeAxiom(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Axiom             string `json:"axiom"`
		ViolationStrategy string `json:"violation_strategy"`
		ResultingInsight  string `json:"resulting_insight"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("axiom", in.Axiom, "violation_strategy", in.ViolationStrategy, "resulting_insight", in.ResultingInsight); err != nil {
		return fail(err)
	}
	switch in.ViolationStrategy {
	case "negate", "invert", "remove", "replace", "exaggerate":
	default:
		return fail(core.Validation(core.FieldError{Field: "violation_strategy",
			Message: "must be one of negate, invert, remove, replace, exaggerate", Type: "enum"}))
	}
	if err := e.State.ChallengeAxiom(in.Axiom); err != nil {
		r := fail(err)
		r.Output["available_axioms"] = e.State.ExtractedAxioms
		return r
	}
	return ok(fmt.Sprintf("Axiom challenged (%s). Radical premises are unlocked for this round.", in.ViolationStrategy),
		"axiom", in.Axiom, "radical_unlocked", true)
}

func importForeignDomain(_ context.Context, _ *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		ProblemDomain     string `json:"problem_domain"`
		SourceDomain      string `json:"source_domain"`
		AnalogySeed       string `json:"analogy_seed"`
		TranslatedInsight string `json:"translated_insight"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("problem_domain", in.ProblemDomain, "source_domain", in.SourceDomain,
		"analogy_seed", in.AnalogySeed, "translated_insight", in.TranslatedInsight); err != nil {
		return fail(err)
	}
	return ok(fmt.Sprintf("Analogy from %q imported into %q. Use it as the seed of a premise.", in.SourceDomain, in.ProblemDomain),
		"source_domain", in.SourceDomain, "translated_insight", in.TranslatedInsight)
}

func obviousnessTest(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Index         *int     `json:"premise_buffer_index"`
		Title         string   `json:"premise_title"`
		Score         *float64 `json:"obviousness_score"`
		Justification string   `json:"justification"`
	}](input)
	if err != nil {
		return fail(err)
	}
	switch {
	case in.Index == nil:
		return fail(core.Validation(core.FieldError{Field: "premise_buffer_index", Message: "is required", Type: "missing"}))
	case in.Score == nil:
		return fail(core.Validation(core.FieldError{Field: "obviousness_score", Message: "is required", Type: "missing"}))
	}
	v, verr := e.State.ApplyObviousness(*in.Index, *in.Score)
	untested := e.State.Untested()
	if verr != nil {
		r := fail(verr)
		if v.Removed {
			r.Output["premise_index"], r.Output["score"] = v.Index, v.Score
			r.Output["premises_in_buffer"] = e.State.PremisesInBuffer()
		}
		return r
	}
	msg := fmt.Sprintf("Premise #%d passed the obviousness test (%g <= %g).", v.Index+1, v.Score, core.ObviousnessThreshold)
	if untested > 0 {
		msg += fmt.Sprintf(" %d premise(s) still need testing.", untested)
	} else if e.State.PremisesRemaining() > 0 {
		msg += fmt.Sprintf(" %d more premise(s) needed before present_round.", e.State.PremisesRemaining())
	} else {
		msg += " All premises tested: call present_round."
	}
	return ok(msg, "premise_index", v.Index, "score", v.Score, "premises_untested", untested)
}

func invertProblem(_ context.Context, _ *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		OriginalProblem string   `json:"original_problem"`
		InversionType   string   `json:"inversion_type"`
		InvertedFraming string   `json:"inverted_framing"`
		Insights        []string `json:"insights"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("original_problem", in.OriginalProblem, "inversion_type", in.InversionType, "inverted_framing", in.InvertedFraming); err != nil {
		return fail(err)
	}
	switch in.InversionType {
	case "cause_problem", "maximize_failure", "remove_solution", "reverse_stakeholders":
	default:
		return fail(core.Validation(core.FieldError{Field: "inversion_type",
			Message: "must be one of cause_problem, maximize_failure, remove_solution, reverse_stakeholders", Type: "enum"}))
	}
	return ok(fmt.Sprintf("Problem inverted (%s) with %d insight(s).", in.InversionType, len(in.Insights)),
		"inverted_framing", in.InvertedFraming, "insights", in.Insights)
}
