package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// premiseOut is how stored premises are shown to the model.
type premiseOut struct {
	ID          string   `json:"id"`
	RoundNumber int      `json:"round_number"`
	Title       string   `json:"title"`
	Body        string   `json:"body,omitempty"`
	PremiseType string   `json:"premise_type"`
	Score       *float64 `json:"score"`
	UserComment string   `json:"user_comment,omitempty"`
	IsWinner    bool     `json:"is_winner"`
}

func premisesOut(ps []core.Premise) []premiseOut {
	out := make([]premiseOut, 0, len(ps))
	for _, p := range ps {
		out = append(out, premiseOut{ID: p.ID, RoundNumber: p.RoundNumber, Title: p.Title, Body: p.Body,
			PremiseType: string(p.PremiseType), Score: p.Score, UserComment: p.UserComment, IsWinner: p.IsWinner})
	}
	return out
}

func storePremise(ctx context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Title       string   `json:"title"`
		Body        string   `json:"body"`
		PremiseType string   `json:"premise_type"`
		Score       *float64 `json:"score"`
		UserComment string   `json:"user_comment"`
		IsWinner    bool     `json:"is_winner"`
		RoundNumber *int     `json:"round_number"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("title", in.Title, "premise_type", in.PremiseType); err != nil {
		return fail(err)
	}
	if in.RoundNumber == nil || *in.RoundNumber < 1 {
		return fail(core.Validation(core.FieldError{Field: "round_number", Message: "must be a round number >= 1", Type: "range"}))
	}
	if in.Score != nil {
		if *in.Score < 0 || *in.Score > 10 {
			return fail(core.Validation(core.FieldError{Field: "score", Message: "must be between 0.0 and 10.0", Type: "range"}))
		}
		r := core.RoundScore(*in.Score)
		in.Score = &r
	}
	id, derr := e.Repo.UpsertPremise(ctx, core.Premise{SessionID: e.SessionID, RoundNumber: *in.RoundNumber, Title: in.Title,
		Body: in.Body, PremiseType: core.PremiseType(in.PremiseType), Score: in.Score, UserComment: in.UserComment,
		IsWinner: in.IsWinner, CreatedAt: e.now()})
	switch {
	case errors.Is(derr, core.ErrWinnerIsUsers):
		return fail(core.NewError(core.CodeUserRecordProtected,
			"is_winner refused for %q: only the user picks the winner (Problem Resolved). Store the premise without is_winner; "+
				"query_premises with filter winners shows the user's pick.", in.Title))
	case errors.Is(derr, core.ErrScoredPremiseFixed):
		return fail(core.NewError(core.CodeUserRecordProtected,
			"%q (round %d) was scored by the user, so its text and type are fixed. To evolve it, create a new premise "+
				"with mutate_premise (source_title %q) or cross_pollinate in the next round.", in.Title, *in.RoundNumber, in.Title))
	case derr != nil:
		return dbFail(e, "store premise", derr)
	}
	return ok(fmt.Sprintf("Premise %q stored (round %d). The user's scores and comments are authoritative: "+
		"a premise the user already has keeps its score and comment.", in.Title, *in.RoundNumber), "premise_id", id)
}

func queryPremises(ctx context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		Filter      string `json:"filter"`
		PremiseType string `json:"premise_type"`
		RoundNumber int    `json:"round_number"`
		Limit       *int   `json:"limit"`
	}](input)
	if err != nil {
		return fail(err)
	}
	f := core.PremiseFilter(in.Filter)
	switch f {
	case core.FilterAll, core.FilterWinners, core.FilterTopScored, core.FilterLowScored, core.FilterByType, core.FilterByRound:
	default:
		return fail(core.Validation(core.FieldError{Field: "filter",
			Message: "must be one of all, winners, top_scored, low_scored, by_type, by_round", Type: "enum"}))
	}
	limit := 10
	if in.Limit != nil {
		limit = min(max(*in.Limit, 1), 100)
	}
	ps, derr := e.Repo.QueryPremises(ctx, e.SessionID, core.PremiseQuery{Filter: f,
		PremiseType: core.PremiseType(in.PremiseType), RoundNumber: in.RoundNumber, Limit: limit})
	if derr != nil {
		return dbFail(e, "query premises", derr)
	}
	return ok(fmt.Sprintf("%d premise(s) found.", len(ps)), "premises", premisesOut(ps), "count", len(ps))
}

func getNegativeContext(ctx context.Context, e *Env, _ json.RawMessage) Result {
	ps, err := e.Repo.QueryPremises(ctx, e.SessionID, core.PremiseQuery{Filter: core.FilterNegative})
	if err != nil {
		return dbFail(e, "query negative context", err)
	}
	e.State.NegativeContextFetched = true
	return ok(fmt.Sprintf("%d premise(s) scored below %.1f: avoid their directions. Generation is unlocked for this round.",
		len(ps), core.NegativeScoreThreshold), "negative_premises", premisesOut(ps), "count", len(ps))
}

func getContextUsage(ctx context.Context, e *Env, _ json.RawMessage) Result {
	rounds, err := e.Repo.CountRounds(ctx, e.SessionID)
	if err != nil {
		return dbFail(e, "count rounds", err)
	}
	u := core.ComputeContextUsage(e.TokensUsed, rounds)
	return ok(fmt.Sprintf("%.2f%% of the context window used.", u.UsagePercentage),
		"tokens_used", u.TokensUsed, "tokens_limit", u.TokensLimit, "tokens_remaining", u.TokensRemaining,
		"usage_percentage", u.UsagePercentage, "estimated_rounds_left", u.EstimatedRoundsLeft)
}
