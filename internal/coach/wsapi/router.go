package wsapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/session"
)

// Handler handles one client message (FR-052). A returned [*Error] is sent
// to the sender as connection:error; any other error is logged and answered
// with INTERNAL_ERROR.
type Handler func(ctx context.Context, req *Request) error

// Request is one client message and the means to answer it. Handlers get
// its payload decoded from [Handle]; Envelope.Payload is nil when the
// frame was decoded once, straight into the handler's type (framedecode.go).
type Request struct {
	Envelope
	Conn  *Conn
	hub   *Hub
	frame []byte // the undecoded frame, when only its type is known yet (framedecode.go)
}

// Reply sends a message to the sender only, carrying the request's id.
func (r *Request) Reply(typ string, payload any) {
	r.hub.Send(r.Conn, r.hub.envelope(typ, payload, r.ID))
}

// Broadcast sends a message to every client, carrying the request's id.
func (r *Request) Broadcast(typ string, payload any) {
	r.hub.BroadcastEnvelope(r.hub.envelope(typ, payload, r.ID))
}

// Error is a protocol error answered with connection:error.
type Error struct {
	Code    string
	Message string
	Context map[string]any
}

// Error returns "CODE: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an [*Error] with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Handle adapts a typed handler: the payload is decoded into T, its size
// limits checked and validated (see [DecodePayload]); a payload over a
// limit is answered with LIMIT_EXCEEDED {field, limit, actual} and a bad
// one with INVALID_PAYLOAD, before f runs (EC-23).
func Handle[T any](f func(ctx context.Context, req *Request, payload T) error) Handler {
	return func(ctx context.Context, req *Request) error {
		var v T
		var err error
		if req.frame != nil {
			v, err = decodeFrame[T](req)
		} else {
			v, err = DecodePayload[T](req.Envelope)
		}
		var we *Error
		if errors.As(err, &we) {
			return we
		}
		if le := limits.As(err); le != nil {
			return &Error{Code: CodeLimitExceeded, Message: err.Error(),
				Context: map[string]any{"field": le.Field, "limit": le.Limit, "actual": le.Actual}}
		}
		if err != nil {
			return &Error{Code: CodeInvalidPayload, Message: err.Error()}
		}
		return f(ctx, req, v)
	}
}

// Extensions are the handlers of the model-driven stories (9–12). A nil
// field keeps the default: the payload is validated, the matching action is
// logged (explain_requested, review_requested) and the client gets
// connection:error NOT_IMPLEMENTED (scenario 5.7). Handlers receive the raw
// request; decode with [DecodePayload] and answer with Broadcast/Reply.
type Extensions struct {
	Explain          Handler // user:explain → explain:response / explain:error
	Review           Handler // user:review → review:response / review:error
	SubmitSolution   Handler // practice:submit_solution → practice:solution_review
	DashboardRequest Handler // dashboard:request → dashboard:state, :dreyfus, :issues, :materials
	RefreshIssues    Handler // dashboard:refresh_issues → dashboard:issues / :issues_error
	RefreshMaterials Handler // dashboard:refresh_materials → dashboard:materials / :materials_error
	ObserverMute     Handler // observer:mute; nil keeps the built-in memory-only toggle
	OpenKata         Handler // practice:open → practice:kata_load / review:error (see OpenKataHandler)
}

// routeTable is the router: every client→server type of the [Catalog] and
// its handler (FR-051). No other registration exists.
func (s *Server) routeTable() map[string]Handler {
	return map[string]Handler{
		TypeConnectionHello:        Handle(s.handleHello),
		TypeFileOpen:               Handle(s.handleFileOpen),
		TypeFileSave:               Handle(s.handleFileSave),
		TypeFileClose:              Handle(s.handleFileClose),
		TypeBufferUpdate:           Handle(s.handleBufferUpdate),
		TypeEditorTabSwitch:        Handle(s.handleTabSwitch),
		TypeEditorSelection:        Handle(s.handleSelection),
		TypeEditorScroll:           Handle(noOp[EditorScroll]),
		TypeExplorerExpandDir:      Handle(noOp[PathPayload]),
		TypeExplorerCollapseDir:    Handle(noOp[PathPayload]),
		TypeHintsLevelChange:       Handle(s.handleHintLevel),
		TypeTerminalReady:          Handle(s.handleTerminalSize),
		TypeTerminalResize:         Handle(s.handleTerminalSize),
		TypeTerminalInput:          Handle(noOp[TerminalInput]),
		TypeUserIdleStart:          Handle(s.handleIdleStart),
		TypeUserIdleEnd:            Handle(s.handleIdleEnd),
		TypeSessionStart:           Handle(s.handleSessionStart),
		TypeSessionResume:          Handle(s.handleSessionResume),
		TypeSessionEnd:             Handle(s.handleSessionEnd),
		TypeObserverMute:           or(s.ext.ObserverMute, Handle(s.handleObserverMute)),
		TypeUserExplain:            or(s.ext.Explain, seam[UserExplain](s, coach.ActionExplainRequested)),
		TypeUserReview:             or(s.ext.Review, seam[UserReview](s, coach.ActionReviewRequested)),
		TypePracticeSubmitSolution: or(s.ext.SubmitSolution, seam[PracticeSubmitSolution](s, "")),
		TypeDashboardRequest:       or(s.ext.DashboardRequest, seam[DashboardRequest](s, "")),
		TypeDashboardRefreshIssues: or(s.ext.RefreshIssues, seam[Empty](s, "")),
		TypeRefreshMaterials:       or(s.ext.RefreshMaterials, seam[Empty](s, "")),
		TypeFSGetTree:              Handle(s.handleGetTree),
		TypeSessionGetState:        Handle(s.handleGetState),
		TypePracticeOpen:           or(s.ext.OpenKata, seam[PracticeOpen](s, "")),
		TypeFSCreate:               Handle(s.handleCreate),
		TypeFSRename:               Handle(s.handleRename),
		TypeFSDelete:               Handle(s.handleDelete),
		TypeFSSearch:               Handle(s.handleSearch),
	}
}

func or(h, def Handler) Handler {
	if h != nil {
		return h
	}
	return def
}

// noOp accepts a valid message and does nothing (status table: No-op).
func noOp[T any](context.Context, *Request, T) error { return nil }

// seam is the default handler of a model-driven message: validate, log the
// action when there is one, answer NOT_IMPLEMENTED.
func seam[T any](s *Server, action coach.ActionType) Handler {
	return Handle(func(ctx context.Context, req *Request, v T) error {
		if action != "" {
			s.logAction(ctx, action, actionData(action, v))
		}
		s.log.Warn("websocket message not yet implemented", "type", req.Type)
		return &Error{Code: CodeNotImplemented,
			Message: req.Type + " needs the model-driven features, which are not available in this server"}
	})
}

// actionData is the logged data of a seam message (story 4's catalog).
func actionData(action coach.ActionType, v any) any {
	if e, ok := v.(UserExplain); ok && action == coach.ActionExplainRequested {
		rng := any(e.Range)
		if e.Selection != nil {
			rng = e.Selection
		}
		return map[string]any{"path": e.Path, "range": rng}
	}
	return map[string]any{}
}

// errNoSession is the answer to session-scoped requests without a session.
var errNoSession = &Error{Code: CodeNoActiveSession, Message: "No active session"}

// asNoSession maps session.ErrNoActiveSession to errNoSession.
func asNoSession(err error) error {
	if errors.Is(err, session.ErrNoActiveSession) {
		return errNoSession
	}
	return err
}
