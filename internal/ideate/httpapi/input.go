package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
)

func (a *API) handleUserInput() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in core.UserInput
		if err := decodeBody(r, &in); err != nil {
			a.writeError(w, r, err)
			return
		}
		in, verr := in.Normalize()
		if verr != nil {
			a.writeError(w, r, verr)
			return
		}
		s, e := a.load(r.Context(), r)
		if e != nil {
			a.writeError(w, r, e)
			return
		}
		run, fresh := a.runs.reserve(s.ID)
		if !fresh {
			a.writeError(w, r, core.NewError(core.CodeConcurrency, "The agent is still working on this session; wait for its done event").WithSession(s.ID))
			return
		}
		// Reload under the reservation: a run that ended since the first
		// read may have changed the session.
		if s, e = a.load(r.Context(), r); e == nil {
			e = a.applyInput(r.Context(), &s, in)
		}
		if e != nil {
			a.runs.release(s.ID, run)
			a.writeError(w, r, e.WithSession(s.ID))
			return
		}
		a.runs.launch(s.ID, run, a.runSession(s.ID))
		a.follow(w, r, run)
	})
}

// applyInput checks the input fits what the session waits for, stores its
// effects (scores, winner, status) and appends the message for the agent.
func (a *API) applyInput(ctx context.Context, s *core.Session, in core.UserInput) *core.Error {
	if s.Status == core.StatusCancelled || s.State.SpecGenerated {
		return core.NewError(core.CodeInvalidSessionState, "Session is %s and takes no more input", s.Status)
	}
	var msg string
	var e *core.Error
	switch in.Type {
	case core.InputScores:
		msg, e = a.applyScores(ctx, s, in.Scores)
	case core.InputAskUser:
		// Also accepted when the agent ended its turn without a pausing
		// tool (a question in plain text): otherwise the session is stuck.
		if s.State.Awaiting != core.AwaitAskUser && s.State.Awaiting != core.AwaitNone {
			return notAwaiting(s, in.Type)
		}
		msg = core.AskUserMessage(*in.Response)
		s.State.Answers = append(s.State.Answers, core.Answer{Question: pendingQuestion(s), Answer: *in.Response, At: a.o.Now().UTC()})
	case core.InputResolved:
		msg, e = a.applyResolved(ctx, s, *in.Winner, in.Scores)
	}
	if e != nil {
		return e
	}
	if in.RawText != nil && *in.RawText != "" {
		msg += fmt.Sprintf("\n\nThe user also wrote: %q", *in.RawText)
	}
	data, from, err := agent.AppendUserText(s.Messages, msg)
	var msgs []json.RawMessage
	if err == nil {
		msgs, err = core.SplitMessages(data)
	}
	if err != nil {
		a.log.Error("ghostpath: append user input", "session_id", s.ID, "err", err)
		return core.Internal()
	}
	s.Messages = data
	s.State.Pending, s.State.Awaiting = nil, core.AwaitNone
	// The run this input starts is running from now on: a crash before its
	// first turn resumes it at start like any interrupted run.
	s.State.Run, s.State.RunAt, s.State.RunError = core.RunRunning, a.o.Now().UTC(), nil
	p := core.Progress{State: s.State, Messages: msgs, From: from, TotalTokens: s.TotalTokensUsed}
	if err := a.repo.SaveProgress(ctx, s.ID, p); err != nil {
		return a.repoError(err, "Session", s.ID, "save user input")
	}
	return nil
}

func notAwaiting(s *core.Session, typ string) *core.Error {
	what := map[core.Waiting]string{
		core.WaitScores: "scores", core.WaitAskUser: "an answer to the agent's question",
		core.WaitFinalSpec: "nothing: its spec is written", core.WaitStart: "its first round: open it to start",
		core.WaitResume: "the agent: resume it", core.WaitSpec: "its spec: continue it to ask the agent for the spec",
	}[core.WaitingFor(s, false)]
	if what == "" {
		what = "nothing"
	}
	return core.NewError(core.CodeInvalidSessionState, "Input %q does not fit: the session is waiting for %s", typ, what)
}

// pendingQuestion is the question of the session's pending ask_user
// prompt; empty when the agent asked in plain text.
func pendingQuestion(s *core.Session) string {
	p := s.State.Pending
	if p == nil || p.Type != core.EventAskUser {
		return ""
	}
	var q struct {
		Question string `json:"question"`
	}
	raw, err := json.Marshal(p.Data)
	if err == nil {
		err = json.Unmarshal(raw, &q)
	}
	if err != nil {
		return ""
	}
	return q.Question
}

// roundPremises returns the premises of the session's latest round.
func (a *API) roundPremises(ctx context.Context, s *core.Session) ([]core.Premise, *core.Error) {
	ps, err := a.repo.QueryPremises(ctx, s.ID, core.PremiseQuery{Filter: core.FilterByRound, RoundNumber: s.State.RoundNumber})
	if err != nil {
		return nil, a.repoError(err, "Session", s.ID, "load round")
	}
	return ps, nil
}

func (a *API) applyScores(ctx context.Context, s *core.Session, scores []core.ScoreInput) (string, *core.Error) {
	if s.State.Awaiting != core.AwaitScores {
		return "", notAwaiting(s, core.InputScores)
	}
	premises, e := a.roundPremises(ctx, s)
	if e != nil {
		return "", e
	}
	var named []core.NamedScore
	seen := map[string]bool{}
	for i, sc := range scores {
		p, ok := matchPremise(premises, sc.PremiseID, sc.PremiseTitle)
		if !ok || seen[p.ID] {
			return "", core.Validation(core.FieldError{Field: fmt.Sprintf("scores.%d.premise_id", i),
				Message: fmt.Sprintf("does not name a distinct premise of round %d", s.State.RoundNumber), Type: "value_error"})
		}
		seen[p.ID] = true
		comment := ""
		if sc.Comment != nil {
			comment = *sc.Comment
		}
		named = append(named, core.NamedScore{Title: p.Title, Score: *sc.Score, Comment: comment})
	}
	for i, sc := range scores {
		p, _ := matchPremise(premises, sc.PremiseID, sc.PremiseTitle)
		if err := a.repo.UpdateScore(ctx, s.ID, core.ScoreUpdate{PremiseID: p.ID, Score: *scores[i].Score, Comment: sc.Comment}); err != nil {
			return "", a.repoError(err, "Premise", p.ID, "save score")
		}
	}
	return core.ScoresMessage(named), nil
}

// matchPremise finds a premise by id, else by title (NOTES.md).
func matchPremise(ps []core.Premise, id, title string) (core.Premise, bool) {
	for _, p := range ps {
		if id != "" && p.ID == id {
			return p, true
		}
	}
	for _, p := range ps {
		if title != "" && p.Title == title {
			return p, true
		}
	}
	return core.Premise{}, false
}

// applyResolved marks the user's winner and resolves the session. scores
// are the round's scores the user gave on the page before resolving
// instead of sending them: each is kept on a premise of the round that has
// none yet (a saved score is never replaced).
func (a *API) applyResolved(ctx context.Context, s *core.Session, w core.WinnerInput, scores []core.ScoreInput) (string, *core.Error) {
	if s.State.RoundNumber < 1 || s.State.Resolved {
		return "", core.NewError(core.CodeInvalidSessionState, "Only a session with a presented round can be resolved, once")
	}
	premises, e := a.roundPremises(ctx, s)
	if e != nil {
		return "", e
	}
	p, ok := matchPremise(premises, w.PremiseID, "")
	if !ok && *w.Index < len(premises) {
		p, ok = premises[*w.Index], true
	}
	if !ok {
		return "", core.Validation(core.FieldError{Field: "winner.index", Message: "does not name a premise of the last round", Type: "value_error"})
	}
	named := make([]core.Premise, len(scores))
	for i, sc := range scores {
		q, found := matchPremise(premises, sc.PremiseID, sc.PremiseTitle)
		if !found {
			return "", core.Validation(core.FieldError{Field: fmt.Sprintf("scores.%d.premise_id", i),
				Message: fmt.Sprintf("does not name a premise of round %d", s.State.RoundNumber), Type: "value_error"})
		}
		named[i] = q
	}
	for i, sc := range scores {
		q := named[i]
		if q.Score != nil {
			continue
		}
		if err := a.repo.UpdateScore(ctx, s.ID, core.ScoreUpdate{PremiseID: q.ID, Score: *sc.Score, Comment: sc.Comment}); err != nil {
			return "", a.repoError(err, "Premise", q.ID, "save score")
		}
		if q.ID == p.ID && w.Score == nil {
			w.Score = sc.Score
		}
	}
	if err := a.repo.MarkWinner(ctx, s.ID, p.ID); err != nil {
		return "", a.repoError(err, "Premise", p.ID, "mark winner")
	}
	if w.Score != nil {
		if err := a.repo.UpdateScore(ctx, s.ID, core.ScoreUpdate{PremiseID: p.ID, Score: *w.Score}); err != nil {
			return "", a.repoError(err, "Premise", p.ID, "save winner score")
		}
	} else if p.Score != nil {
		w.Score = p.Score
	}
	now := a.o.Now()
	if err := a.repo.UpdateStatus(ctx, s.ID, core.StatusResolved, &now); err != nil {
		return "", a.repoError(err, "Session", s.ID, "resolve session")
	}
	s.Status = core.StatusResolved
	winner := core.Winner{PremiseID: p.ID, Title: p.Title, Index: p.BufferIndex, Score: w.Score}
	s.State.Resolved, s.State.Winner = true, &winner
	return core.ResolvedMessage(winner), nil
}
