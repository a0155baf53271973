package httpapi

import (
	"context"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
)

// sessionDetailResponse is GET /sessions/{id}: the spec's fields plus the
// rounds with their premises and scores (for the report page), what the
// session waits for, its context usage and the spec URL once written.
type sessionDetailResponse struct {
	ID              string             `json:"id"`
	Problem         string             `json:"problem"`
	Status          core.SessionStatus `json:"status"`
	CreatedAt       string             `json:"created_at"`
	ResolvedAt      *string            `json:"resolved_at"`
	TotalTokensUsed int64              `json:"total_tokens_used"`
	Awaiting        core.Awaiting      `json:"awaiting_input"`
	Running         bool               `json:"running"`
	ContextUsage    core.ContextUsage  `json:"context_usage"`
	SpecURL         *string            `json:"spec_url"`
	Rounds          []roundResponse    `json:"rounds"`
}

type roundResponse struct {
	RoundNumber int               `json:"round_number"`
	CreatedAt   string            `json:"created_at"`
	Premises    []premiseResponse `json:"premises"`
}

type premiseResponse struct {
	ID                string           `json:"id"`
	Title             string           `json:"title"`
	Body              string           `json:"body"`
	PremiseType       core.PremiseType `json:"premise_type"`
	ViolatedAxiom     string           `json:"violated_axiom,omitempty"`
	CrossDomainSource string           `json:"cross_domain_source,omitempty"`
	SourceTitle       string           `json:"source_title,omitempty"`  // mutation: the premise it evolved from
	PrimaryTitle      string           `json:"primary_title,omitempty"` // combination: its primary parent
	ObviousnessScore  *float64         `json:"obviousness_score"`
	Score             *float64         `json:"score"`
	UserComment       *string          `json:"user_comment"`
	IsWinner          bool             `json:"is_winner"`
	RoundNumber       int              `json:"round_number"`
}

func (a *API) sessionDetail(ctx context.Context, s core.Session) (sessionDetailResponse, error) {
	d := sessionDetailResponse{ID: s.ID, Problem: s.Problem, Status: s.Status, CreatedAt: formatTime(s.CreatedAt),
		ResolvedAt: formatTimePtr(s.ResolvedAt), TotalTokensUsed: s.TotalTokensUsed, Awaiting: s.State.Awaiting,
		Running: a.runs.get(s.ID) != nil, Rounds: []roundResponse{}}
	if s.SpecPath != "" {
		u := agent.SpecURL(s.ID)
		d.SpecURL = &u
	}
	rounds, err := a.repo.ListRounds(ctx, s.ID)
	if err != nil {
		return d, err
	}
	premises, err := a.repo.QueryPremises(ctx, s.ID, core.PremiseQuery{Filter: core.FilterAll})
	if err != nil {
		return d, err
	}
	byRound := map[int][]premiseResponse{}
	for _, p := range premises {
		var comment *string
		if p.UserComment != "" {
			comment = &p.UserComment
		}
		byRound[p.RoundNumber] = append(byRound[p.RoundNumber], premiseResponse{ID: p.ID, Title: p.Title, Body: p.Body,
			PremiseType: p.PremiseType, ViolatedAxiom: p.ViolatedAxiom, CrossDomainSource: p.CrossDomainSource,
			SourceTitle: p.SourceTitle, PrimaryTitle: p.PrimaryTitle, ObviousnessScore: p.ObviousnessScore, Score: p.Score, UserComment: comment, IsWinner: p.IsWinner, RoundNumber: p.RoundNumber})
	}
	for _, r := range rounds {
		ps := byRound[r.RoundNumber]
		if ps == nil {
			ps = []premiseResponse{}
		}
		d.Rounds = append(d.Rounds, roundResponse{RoundNumber: r.RoundNumber, CreatedAt: formatTime(r.CreatedAt), Premises: ps})
	}
	d.ContextUsage = core.ComputeContextUsage(s.TotalTokensUsed, len(rounds))
	return d, nil
}
