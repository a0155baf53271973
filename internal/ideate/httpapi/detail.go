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
	Title           string             `json:"title"`
	Status          core.SessionStatus `json:"status"`
	CreatedAt       string             `json:"created_at"`
	ResolvedAt      *string            `json:"resolved_at"`
	TotalTokensUsed int64              `json:"total_tokens_used"`
	Awaiting        core.Awaiting      `json:"awaiting_input"`
	Running         bool               `json:"running"`
	WaitingFor      core.Waiting       `json:"waiting_for"`
	RunError        *core.RunError     `json:"run_error"`
	Answers         []core.Answer      `json:"answers"`
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
	SecondaryTitles   []string         `json:"secondary_titles,omitempty"`
	Parents           []core.Parent    `json:"parents"`
	ObviousnessScore  *float64         `json:"obviousness_score"`
	Score             *float64         `json:"score"`
	UserComment       *string          `json:"user_comment"`
	IsWinner          bool             `json:"is_winner"`
	RoundNumber       int              `json:"round_number"`
}

func (a *API) sessionDetail(ctx context.Context, s core.Session) (sessionDetailResponse, error) {
	running := a.runs.get(s.ID) != nil
	d := sessionDetailResponse{ID: s.ID, Problem: s.Problem, Title: s.Title, Status: s.Status, CreatedAt: formatTime(s.CreatedAt),
		ResolvedAt: formatTimePtr(s.ResolvedAt), TotalTokensUsed: s.TotalTokensUsed, Awaiting: s.State.Awaiting,
		Running: running, WaitingFor: core.WaitingFor(&s, running), Answers: s.State.Answers, Rounds: []roundResponse{}}
	if d.Answers == nil {
		d.Answers = []core.Answer{}
	}
	if s.State.Run == core.RunFailed {
		d.RunError = s.State.RunError
	}
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
	parents := core.Parents(premises)
	byRound := map[int][]premiseResponse{}
	for _, p := range premises {
		var comment *string
		if p.UserComment != "" {
			comment = &p.UserComment
		}
		byRound[p.RoundNumber] = append(byRound[p.RoundNumber], premiseResponse{ID: p.ID, Title: p.Title, Body: p.Body,
			PremiseType: p.PremiseType, ViolatedAxiom: p.ViolatedAxiom, CrossDomainSource: p.CrossDomainSource,
			SourceTitle: p.SourceTitle, PrimaryTitle: p.PrimaryTitle, SecondaryTitles: p.SecondaryTitles,
			Parents: orEmpty(parents[p.ID]), ObviousnessScore: p.ObviousnessScore, Score: p.Score, UserComment: comment, IsWinner: p.IsWinner, RoundNumber: p.RoundNumber})
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

// orEmpty makes a nil slice an empty one (JSON [] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
