package coaching

import (
	"context"
	"log/slog"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// Deps is what a model-backed coach service outside this package (Explain
// This, the practice review) is built from; its fields are set once by
// [NewDeps] and never change.
type Deps struct {
	Store   *store.Store
	Session *session.Service
	LLM     *llm.Client
	Logger  *slog.Logger // never nil
}

// NewDeps returns the Deps of the service called name; st, sess and client
// are required (it panics otherwise, a wiring bug); a nil logger discards.
func NewDeps(name string, st *store.Store, sess *session.Service, client *llm.Client, logger *slog.Logger) Deps {
	if st == nil || sess == nil || client == nil {
		panic(name + ": store, session and llm client are required")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return Deps{Store: st, Session: sess, LLM: client, Logger: logger}
}

// Log records an action of the active session even when ctx is cancelled
// (the flow it records happened); a failure is logged, not returned.
func (d Deps) Log(ctx context.Context, t coach.ActionType, data any) {
	if err := d.Session.Log(context.WithoutCancel(ctx), t, data); err != nil {
		d.Logger.Error("cannot log action", "action", string(t), "err", err)
	}
}
