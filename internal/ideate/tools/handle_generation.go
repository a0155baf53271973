package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/ideate/core"
)

type premiseInput struct {
	Title             string           `json:"title"`
	Body              string           `json:"body"`
	PremiseType       core.PremiseType `json:"premise_type"`
	DirectionHint     string           `json:"direction_hint"`
	ViolatedAxiom     string           `json:"violated_axiom"`
	CrossDomainSource string           `json:"cross_domain_source"`
	// SourceTitle / PrimaryTitle are set by mutate_premise / cross_pollinate
	// only (generate_premise has no parent, so its input ignores them).
	SourceTitle     string   `json:"-"`
	PrimaryTitle    string   `json:"-"`
	SecondaryTitles []string `json:"-"`
}

// addPremise is the shared sandwich of the three generation tools:
// validate the input, let core check the rules and buffer it, report.
func addPremise(e *Env, source string, in premiseInput, allowed []core.PremiseType, verb string) Result {
	if err := required("title", in.Title, "body", in.Body); err != nil {
		return fail(err)
	}
	if !typeAllowed(in.PremiseType, allowed) {
		return fail(core.Validation(core.FieldError{Field: "premise_type",
			Message: fmt.Sprintf("must be one of %v", allowed), Type: "enum"}))
	}
	idx, err := e.State.AddPremise(core.BufferedPremise{
		PremiseText: core.PremiseText{Title: in.Title, Body: in.Body, PremiseType: in.PremiseType, DirectionHint: in.DirectionHint,
			ViolatedAxiom: in.ViolatedAxiom, CrossDomainSource: in.CrossDomainSource},
		Source: source,
		Lineage: core.Lineage{SourceTitle: strings.TrimSpace(in.SourceTitle), PrimaryTitle: strings.TrimSpace(in.PrimaryTitle),
			SecondaryTitles: trimmedTitles(in.SecondaryTitles)},
	})
	if err != nil {
		return fail(err)
	}
	n, left := e.State.PremisesInBuffer(), e.State.PremisesRemaining()
	msg := fmt.Sprintf("%s Premise #%d added to buffer (%d/3). ", verb, idx+1, n)
	if left > 0 {
		msg += fmt.Sprintf("%d premise(s) remaining.", left)
	} else {
		msg += "Buffer complete! Run obviousness_test on each premise, then call present_round."
	}
	return ok(msg, "premise_index", idx, "premises_in_buffer", n, "premises_remaining", left)
}

func typeAllowed(t core.PremiseType, allowed []core.PremiseType) bool {
	for _, a := range allowed {
		if a == t {
			return true
		}
	}
	return false
}

func generatePremise(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[premiseInput](input)
	if err != nil {
		return fail(err)
	}
	if in.PremiseType == "" {
		in.PremiseType = core.PremiseInitial
	}
	return addPremise(e, "generate_premise", in,
		[]core.PremiseType{core.PremiseInitial, core.PremiseConservative, core.PremiseRadical, core.PremiseCombination}, "Premise generated.")
}

func mutatePremise(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		premiseInput
		SourceTitle      string   `json:"source_title"`
		MutationStrength *float64 `json:"mutation_strength"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("source_title", in.SourceTitle); err != nil {
		return fail(err)
	}
	if in.MutationStrength == nil || *in.MutationStrength < 0.1 || *in.MutationStrength > 1 {
		return fail(core.Validation(core.FieldError{Field: "mutation_strength", Message: "must be between 0.1 and 1.0", Type: "range"}))
	}
	if in.PremiseType == "" {
		in.PremiseType = core.PremiseConservative
	}
	in.premiseInput.SourceTitle = in.SourceTitle
	return addPremise(e, "mutate_premise", in.premiseInput,
		[]core.PremiseType{core.PremiseConservative, core.PremiseRadical, core.PremiseCombination}, "Mutation applied.")
}

func crossPollinate(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		premiseInput
		PrimaryTitle      string `json:"primary_title"`
		SynthesisStrategy string `json:"synthesis_strategy"`
		Secondary         []struct {
			Title string `json:"title"`
		} `json:"secondary_premises"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("primary_title", in.PrimaryTitle, "synthesis_strategy", in.SynthesisStrategy); err != nil {
		return fail(err)
	}
	if in.PremiseType == "" {
		in.PremiseType = core.PremiseCombination
	}
	in.premiseInput.PrimaryTitle = in.PrimaryTitle
	for _, s := range in.Secondary {
		in.premiseInput.SecondaryTitles = append(in.premiseInput.SecondaryTitles, s.Title)
	}
	return addPremise(e, "cross_pollinate", in.premiseInput, []core.PremiseType{core.PremiseCombination}, "Cross-pollination completed.")
}

// trimmedTitles trims each title and drops blanks and repeats (ignoring
// case): the other parents of a combination.
func trimmedTitles(ts []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		t = strings.TrimSpace(t)
		if k := strings.ToLower(t); t != "" && !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}
