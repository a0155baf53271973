package core

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is returned by a [Repository] when no row has the given id.
var ErrNotFound = errors.New("ideate: not found")

// Session is one GhostPath session with its persisted progress.
type Session struct {
	ID      string
	Problem string
	// Title is the name the user gave the session; empty: the problem names it.
	Title           string
	Status          SessionStatus
	CreatedAt       time.Time
	ResolvedAt      *time.Time
	TotalTokensUsed int64
	// State is the enforcement state after the last completed turn.
	State State
	// Messages is the Claude message history (a JSON array of message params).
	Messages json.RawMessage
	// SpecPath is where the final spec was written; empty until then.
	SpecPath string
	// LastActivityAt is the time of the session's latest tool call, or its
	// creation without one. Set by ListSessions only (zero elsewhere).
	LastActivityAt time.Time
}

// Round is one presented round.
type Round struct {
	ID          string
	SessionID   string
	RoundNumber int
	CreatedAt   time.Time
}

// Premise is one stored premise.
type Premise struct {
	ID                string
	SessionID         string
	RoundID           string
	RoundNumber       int
	Title             string
	Body              string
	PremiseType       PremiseType
	ViolatedAxiom     string
	CrossDomainSource string
	// SourceTitle and PrimaryTitle are the lineage (see [BufferedPremise]);
	// empty is stored as NULL.
	SourceTitle  string
	PrimaryTitle string
	// SecondaryTitles are a combination's other parents (JSON, NULL when none).
	SecondaryTitles  []string
	ObviousnessScore *float64
	Score            *float64
	UserComment      string
	IsWinner         bool
	BufferIndex      int
	CreatedAt        time.Time
}

// ToolCall is one tool execution, successful or not.
type ToolCall struct {
	ID         string
	SessionID  string
	ToolName   string
	Input      json.RawMessage
	Output     json.RawMessage
	Status     string // "ok", "error", "rejected", "warning", "awaiting_user_scores", ...
	ErrorCode  string
	Iteration  int
	DurationMs int64
	CreatedAt  time.Time
}

// Progress is what a turn changes. Messages is the whole history, one JSON
// message param per element; only Messages[From:] are written (earlier ones
// are stored already and unchanged), and stored messages beyond
// len(Messages) are removed. Writing a turn thus costs its own size, not the
// history's.
type Progress struct {
	State       State
	Messages    []json.RawMessage
	From        int
	TotalTokens int64
	Calls       []ToolCall
}

// SplitMessages splits a JSON array of messages into its elements; empty
// data is an empty history.
func SplitMessages(data json.RawMessage) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if len(data) == 0 {
		return out, nil
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// JoinMessages is the inverse of SplitMessages.
func JoinMessages(msgs []json.RawMessage) json.RawMessage {
	n := 2
	for _, m := range msgs {
		n += len(m) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return append(b, ']')
}

// ListOptions pages and filters [Repository.ListSessions]. Zero Limit means 10.
type ListOptions struct {
	Limit  int
	Offset int
	Status SessionStatus // empty: every status
	// Query keeps the sessions whose problem contains it, ignoring ASCII
	// case (a plain substring: % and _ are not wildcards); empty: all.
	Query string
}

// PremiseFilter is query_premises' filter.
type PremiseFilter string

// Premise filters of query_premises.
const (
	FilterAll       PremiseFilter = "all"
	FilterWinners   PremiseFilter = "winners"
	FilterTopScored PremiseFilter = "top_scored"
	FilterLowScored PremiseFilter = "low_scored"
	FilterByType    PremiseFilter = "by_type"
	FilterByRound   PremiseFilter = "by_round"
	FilterNegative  PremiseFilter = "negative" // score < 5.0 (get_negative_context)
)

// PremiseQuery selects premises of one session. Zero Limit means no limit.
type PremiseQuery struct {
	Filter      PremiseFilter
	PremiseType PremiseType
	RoundNumber int
	Limit       int
}

// ScoreUpdate sets a premise's score and comment, naming it by id or, when
// the id is empty, by title (latest premise of the session with that title).
type ScoreUpdate struct {
	PremiseID string
	Title     string
	Score     float64
	Comment   *string
}

// Repository is the one persistence contract GhostPath's shell uses; SQLite
// and PostgreSQL implement it. Methods return [ErrNotFound] (wrapped) for a
// missing session or premise. Implementations are safe for concurrent use.
// Deleting a session deletes its rounds, premises and tool calls.
type Repository interface {
	CreateSession(ctx context.Context, s Session) error
	GetSession(ctx context.Context, id string) (Session, error)
	// ListSessions pages the sessions opts keeps by last activity, newest
	// first, without their messages.
	ListSessions(ctx context.Context, opts ListOptions) ([]Session, error)
	// CountSessions counts the sessions opts' Status and Query keep
	// (Limit and Offset are ignored).
	CountSessions(ctx context.Context, opts ListOptions) (int, error)
	DeleteSession(ctx context.Context, id string) error
	// RenameSession sets the session's Title.
	RenameSession(ctx context.Context, id, title string) error
	// UpdateStatus sets the status; resolvedAt is stored when non-nil.
	UpdateStatus(ctx context.Context, id string, status SessionStatus, resolvedAt *time.Time) error
	// SetStatusIf moves the session from status from to status to, and
	// reports whether it was in from (nothing changes otherwise).
	SetStatusIf(ctx context.Context, id string, from, to SessionStatus) (bool, error)
	// SaveProgress persists one turn in one transaction: state, token
	// total, the messages from p.From on, and the turn's tool calls (their
	// SessionID is set to id).
	SaveProgress(ctx context.Context, id string, p Progress) error
	// SetSpecPath records where the final spec was written.
	SetSpecPath(ctx context.Context, id, path string) error

	// SaveRound stores a round and its premises atomically; premises get
	// the round's id and number.
	SaveRound(ctx context.Context, r Round, premises []Premise) error
	CountRounds(ctx context.Context, sessionID string) (int, error)
	ListRounds(ctx context.Context, sessionID string) ([]Round, error)
	// UpsertPremise updates the premise with the same session, round number
	// and title, or inserts it (creating the round if needed); returns its id.
	// It never changes what is the user's: an existing premise's score and
	// comment (set only through UpdateScore) are kept, marking a winner that
	// is not already the user's (MarkWinner) is refused with
	// [ErrWinnerIsUsers], and changing a scored premise's body or type with
	// [ErrScoredPremiseFixed].
	UpsertPremise(ctx context.Context, p Premise) (string, error)
	QueryPremises(ctx context.Context, sessionID string, q PremiseQuery) ([]Premise, error)
	UpdateScore(ctx context.Context, sessionID string, u ScoreUpdate) error
	MarkWinner(ctx context.Context, sessionID, premiseID string) error

	RecordToolCall(ctx context.Context, tc ToolCall) error
	ListToolCalls(ctx context.Context, sessionID string) ([]ToolCall, error)

	// Ping checks the database is reachable (readiness).
	Ping(ctx context.Context) error
	Close() error
}
