package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// Env is what a handler may read and change: the session's state (owned by
// the run calling the handler) and the repository.
type Env struct {
	SessionID  string
	Problem    string
	State      *core.State
	Repo       core.Repository
	TokensUsed int64
	// SpecDir is the directory generate_final_spec writes <session>.md into.
	SpecDir string
	// SpecURL is the download URL reported for the written spec.
	SpecURL string
	// Now and NewID default to time.Now and UUIDv7.
	Now   func() time.Time
	NewID func() string
	Log   *slog.Logger
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Env) newID() string {
	if e.NewID == nil {
		return uuid.Must(uuid.NewV7()).String()
	}
	return e.NewID()
}

// Result is a handler's outcome.
type Result struct {
	// Output is the JSON object the model receives; it always has "status".
	Output map[string]any
	// Err is set for error, rejected and warning outcomes.
	Err *core.Error
	// Pause is the prompt to show when the tool pauses the loop
	// (premises, ask_user, final_spec); nil otherwise.
	Pause *core.Event
}

// Status returns Output["status"].
func (r Result) Status() string {
	s, _ := r.Output["status"].(string)
	return s
}

// Message returns Output["message"].
func (r Result) Message() string {
	s, _ := r.Output["message"].(string)
	return s
}

// Failed reports whether the outcome is an error (not an info or warning).
func (r Result) Failed() bool { return r.Err != nil && !r.Err.Recoverable() }

// Handler runs one tool.
type Handler func(ctx context.Context, e *Env, input json.RawMessage) Result

// Dispatch routes a tool name to its handler through one explicit table.
// It is immutable after [NewDispatch] and safe for concurrent use.
type Dispatch struct {
	handlers map[string]Handler
	schemas  func() map[string]*jsonschema.Resolved // resolved on the first Execute, not at start
}

// NewDispatch returns the dispatch table of the 17 tools. Adding a tool
// means adding its definition and one line here.
func NewDispatch() *Dispatch {
	return &Dispatch{handlers: map[string]Handler{
		// Analysis (gates)
		"decompose_problem":           decomposeProblem,
		"map_conventional_approaches": mapConventionalApproaches,
		"extract_hidden_axioms":       extractHiddenAxioms,
		// Generation (gate-checked)
		"generate_premise": generatePremise,
		"mutate_premise":   mutatePremise,
		"cross_pollinate":  crossPollinate,
		// Innovation
		"challenge_axiom":       challengeAxiom,
		"import_foreign_domain": importForeignDomain,
		"obviousness_test":      obviousnessTest,
		"invert_problem":        invertProblem,
		// Interaction (pausing)
		"ask_user":            askUser,
		"present_round":       presentRound,
		"generate_final_spec": generateFinalSpec,
		// Memory
		"store_premise":        storePremise,
		"query_premises":       queryPremises,
		"get_negative_context": getNegativeContext,
		"get_context_usage":    getContextUsage,
	}, schemas: sync.OnceValue(schemas)}
}

// Names lists the tools the table routes.
func (d *Dispatch) Names() []string {
	out := make([]string, 0, len(d.handlers))
	for n := range d.handlers {
		out = append(out, n)
	}
	return out
}

// Execute runs the named tool. It never panics: an unknown tool answers
// UNKNOWN_TOOL, an input that breaks the tool's JSON Schema (type, enum,
// range, required field) VALIDATION_ERROR without running the handler, and
// a panicking handler TOOL_EXECUTION_ERROR (logged).
func (d *Dispatch) Execute(ctx context.Context, e *Env, name string, input json.RawMessage) (res Result) {
	h, ok := d.handlers[name]
	if !ok {
		return fail(core.NewError(core.CodeUnknownTool, "Tool '%s' does not exist.", name))
	}
	if rs := d.schemas()[name]; rs != nil {
		if err := validateInput(rs, input); err != nil {
			return fail(err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			if e.Log != nil {
				e.Log.Error("ghostpath tool panicked", "tool", name, "session_id", e.SessionID, "panic", fmt.Sprint(p))
			}
			res = fail(core.NewError(core.CodeToolExecution, "Internal error executing %s", name))
		}
	}()
	return h(ctx, e, input)
}

// fail renders a core error as a result.
func fail(err *core.Error) Result { return Result{Output: err.ToolResult(), Err: err} }

// ok builds a successful result with a message and extra fields.
func ok(message string, kv ...any) Result {
	out := map[string]any{"status": "ok", "message": message}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return Result{Output: out}
}

// dbFail reports a repository failure to the model without details.
func dbFail(e *Env, op string, err error) Result {
	if e.Log != nil {
		e.Log.Error("ghostpath tool database error", "op", op, "session_id", e.SessionID, "err", err)
	}
	return fail(core.NewError(core.CodeDatabase, "Database %s failed; try again", op))
}

// decode parses input into T; a type mismatch is a VALIDATION_ERROR naming
// the field and the JSON type it got.
func decode[T any](input json.RawMessage) (T, *core.Error) {
	var v T
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if err := json.Unmarshal(input, &v); err != nil {
		// The schema check runs first, so this is a last resort; it names
		// the field and the JSON type, never Go's types.
		field, msg := "input", "is not a valid JSON object"
		if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
			field, msg = te.Field, "has the wrong type (got "+te.Value+")"
		}
		return v, core.Validation(core.FieldError{Field: field, Message: msg, Type: "type_error"})
	}
	return v, nil
}

// required reports the first blank string among name/value pairs.
func required(pairs ...string) *core.Error {
	var errs []core.FieldError
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			errs = append(errs, core.FieldError{Field: pairs[i], Message: "is required", Type: "missing"})
		}
	}
	if len(errs) > 0 {
		return core.Validation(errs...)
	}
	return nil
}
