package core

import (
	"errors"
	"time"
)

// RunState is what a session's last agent run left behind. It is kept in
// [State] (persisted with every turn), so after a restart Paige knows which
// runs the process death interrupted and which ended on their own.
type RunState string

// Run states.
const (
	// RunNone: no run yet, or the last one ended as it should (paused for
	// the user, or finished).
	RunNone RunState = ""
	// RunRunning: a run was in progress. Read after a restart, the run was
	// interrupted by the process stopping.
	RunRunning RunState = "running"
	// RunFailed: the last run ended with an error (a refusal, 429, 529, a
	// timeout, ...). It waits for the user to resume it.
	RunFailed RunState = "failed"
	// RunCancelled: the user stopped the last run (cancel, or closing the
	// page). It waits for the user to resume it.
	RunCancelled RunState = "cancelled"
)

// RunError is the error a failed run ended with, as people saw it.
type RunError struct {
	Code    Code   `json:"code"`
	APICode string `json:"api_code,omitempty"`
	Message string `json:"message"`
}

// Answer is one question the agent asked with ask_user and the user's answer.
type Answer struct {
	Question string    `json:"question"`
	Answer   string    `json:"answer"`
	At       time.Time `json:"at"`
}

// Errors a repository returns when the agent tries to change what is the
// user's (see [Repository.UpsertPremise]).
var (
	// ErrWinnerIsUsers: only the user picks the winner (the "resolved"
	// input); store_premise cannot mark one.
	ErrWinnerIsUsers = errors.New("ideate: the winner is the user's choice")
	// ErrScoredPremiseFixed: a premise the user scored keeps its text and
	// type; an evolution is a new premise naming its parents.
	ErrScoredPremiseFixed = errors.New("ideate: a scored premise cannot be changed")
)

// Waiting says what a session is waiting for, in one word clients can show.
type Waiting string

// What a session waits for (the API's waiting_for).
const (
	WaitAgent     Waiting = "agent"      // a run is in progress
	WaitStart     Waiting = "start"      // a new session: opening it starts round 1
	WaitScores    Waiting = "scores"     // the user scores the round
	WaitAskUser   Waiting = "ask_user"   // the user answers the agent's question
	WaitFinalSpec Waiting = "final_spec" // the spec is written: nothing more to do
	WaitResume    Waiting = "resume"     // a run failed, was cancelled or interrupted: the user resumes it
	WaitSpec      Waiting = "spec"       // resolved, but the agent ended without the spec: Continue asks for it
	WaitNothing   Waiting = "nothing"    // cancelled, or finished
)

// WaitingFor says what sess waits for, from its saved state; running
// reports a live run.
func WaitingFor(sess *Session, running bool) Waiting {
	st := &sess.State
	switch {
	case running:
		return WaitAgent
	case sess.Status == StatusCancelled:
		return WaitNothing
	case st.Awaiting == AwaitScores:
		return WaitScores
	case st.Awaiting == AwaitAskUser:
		return WaitAskUser
	case st.Awaiting == AwaitDone || st.SpecGenerated:
		return WaitFinalSpec
	case st.Run != RunNone:
		return WaitResume
	case sess.Status == StatusCreated:
		return WaitStart
	case st.Resolved:
		return WaitSpec
	}
	return WaitNothing
}
