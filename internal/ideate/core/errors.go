package core

import (
	"fmt"
	"strings"
	"time"
)

// Code is a stable, machine-readable error code (the spec's quick reference).
type Code string

// Error codes. The first sixteen are the spec's; the last six are ours and
// documented in docs/ghostpath.md.
const (
	CodeValidation             Code = "VALIDATION_ERROR"
	CodeGatesNotSatisfied      Code = "GATES_NOT_SATISFIED"
	CodeRoundBufferFull        Code = "ROUND_BUFFER_FULL"
	CodeAxiomNotChallenged     Code = "AXIOM_NOT_CHALLENGED"
	CodeNegativeContextMissing Code = "NEGATIVE_CONTEXT_MISSING"
	CodeIncompleteRound        Code = "INCOMPLETE_ROUND"
	CodeUntestedPremises       Code = "UNTESTED_PREMISES"
	CodeTooObvious             Code = "TOO_OBVIOUS"
	CodeInvalidIndex           Code = "INVALID_INDEX"
	CodeNotFound               Code = "RESOURCE_NOT_FOUND"
	CodeDatabase               Code = "DATABASE_ERROR"
	CodeAnthropicAPI           Code = "ANTHROPIC_API_ERROR"
	CodeConcurrency            Code = "CONCURRENCY_CONFLICT"
	CodeAgentLoopExceeded      Code = "AGENT_LOOP_EXCEEDED"
	CodeToolExecution          Code = "TOOL_EXECUTION_ERROR"
	CodeUnknownTool            Code = "UNKNOWN_TOOL"

	CodeAxiomNotExtracted   Code = "AXIOM_NOT_EXTRACTED"    // challenge_axiom WARNING
	CodeFinalSpecNotAllowed Code = "FINAL_SPEC_NOT_ALLOWED" // generate_final_spec before "resolved"
	CodeInvalidSessionState Code = "INVALID_SESSION_STATE"  // e.g. cancel a session that is not active
	CodeInternal            Code = "INTERNAL_ERROR"         // catch-all, never leaks details
	CodeServerShutdown      Code = "SERVER_SHUTTING_DOWN"   // the server stopped a run; it resumes on the next stream
	CodeUserRecordProtected Code = "USER_RECORD_PROTECTED"  // store_premise tried to change the user's winner or a scored premise
)

// Category groups codes for routing and handling.
type Category string

// Error categories.
const (
	CatValidation   Category = "validation"
	CatBusinessRule Category = "business_rule"
	CatNotFound     Category = "resource_not_found"
	CatDatabase     Category = "database"
	CatExternalAPI  Category = "external_api"
	CatInternal     Category = "internal"
	CatConflict     Category = "conflict"
	CatTimeout      Category = "timeout"
)

// Severity tells clients how bad an error is; info and warning are recoverable.
type Severity string

// Severities.
const (
	SevInfo     Severity = "info"
	SevWarning  Severity = "warning"
	SevError    Severity = "error"
	SevCritical Severity = "critical"
)

// CodeInfo is the fixed category, severity and HTTP status of a code.
type CodeInfo struct {
	Category Category
	Severity Severity
	Status   int
}

// Codes maps every code to its category, severity and HTTP status.
var Codes = map[Code]CodeInfo{
	CodeValidation:             {CatValidation, SevError, 400},
	CodeGatesNotSatisfied:      {CatBusinessRule, SevError, 400},
	CodeRoundBufferFull:        {CatBusinessRule, SevError, 400},
	CodeAxiomNotChallenged:     {CatBusinessRule, SevError, 400},
	CodeNegativeContextMissing: {CatBusinessRule, SevError, 400},
	CodeIncompleteRound:        {CatBusinessRule, SevError, 400},
	CodeUntestedPremises:       {CatBusinessRule, SevError, 400},
	CodeTooObvious:             {CatBusinessRule, SevInfo, 200},
	CodeInvalidIndex:           {CatValidation, SevError, 400},
	CodeNotFound:               {CatNotFound, SevError, 404},
	CodeDatabase:               {CatDatabase, SevCritical, 503},
	CodeAnthropicAPI:           {CatExternalAPI, SevCritical, 503},
	CodeConcurrency:            {CatConflict, SevError, 409},
	CodeAgentLoopExceeded:      {CatInternal, SevCritical, 500},
	CodeToolExecution:          {CatInternal, SevCritical, 500},
	CodeUnknownTool:            {CatValidation, SevError, 400},
	CodeAxiomNotExtracted:      {CatBusinessRule, SevWarning, 200},
	CodeFinalSpecNotAllowed:    {CatBusinessRule, SevError, 400},
	CodeInvalidSessionState:    {CatBusinessRule, SevError, 400},
	CodeInternal:               {CatInternal, SevCritical, 500},
	CodeServerShutdown:         {CatInternal, SevWarning, 503},
	CodeUserRecordProtected:    {CatBusinessRule, SevError, 400},
}

// ErrorContext carries what observability and clients need about an error.
type ErrorContext struct {
	SessionID    string
	ToolName     string
	RoundNumber  *int
	UserMessage  string // shown in SSE instead of Message when set
	RetryAfterMs *int64
	// APICode is the model API's own error type or stop reason
	// ("rate_limit", "overloaded_error", "timeout", "refusal", ...): the
	// SSE event carries it as api_code, for clients and support, beside the
	// sentence for people.
	APICode string
}

// FieldError is one failed field of a VALIDATION_ERROR.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// Error is every GhostPath failure: a code with its category, severity and
// HTTP status (from [Codes]), a message safe to show, and context.
type Error struct {
	Code     Code
	Message  string
	Category Category
	Severity Severity
	Status   int
	Context  ErrorContext
	// Details lists failed fields (VALIDATION_ERROR only).
	Details []FieldError
	// MissingGates lists the gates still missing (GATES_NOT_SATISFIED only).
	MissingGates []string
	// Err is the cause, for logs and errors.As (e.g. an *llm.TimeoutError);
	// never shown to clients.
	Err error
}

// NewError returns an error with code's category, severity and status.
// An unknown code is treated as INTERNAL_ERROR's.
func NewError(code Code, format string, args ...any) *Error {
	info, ok := Codes[code]
	if !ok {
		info = Codes[CodeInternal]
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, Message: msg, Category: info.Category, Severity: info.Severity, Status: info.Status}
}

// Error implements error as "CODE: message".
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Recoverable reports whether the severity is info or warning.
func (e *Error) Recoverable() bool { return e.Severity == SevInfo || e.Severity == SevWarning }

// WithTool returns e with the tool name set in its context.
func (e *Error) WithTool(name string) *Error { e.Context.ToolName = name; return e }

// WithSession returns e with the session id set in its context.
func (e *Error) WithSession(id string) *Error { e.Context.SessionID = id; return e }

// Validation returns a VALIDATION_ERROR listing the failed fields.
func Validation(details ...FieldError) *Error {
	e := NewError(CodeValidation, "Invalid request data")
	if len(details) == 1 {
		e.Message = "Invalid request data: " + details[0].Field + ": " + details[0].Message
	}
	e.Details = details
	return e
}

// NotFound returns RESOURCE_NOT_FOUND for a resource kind and id.
func NotFound(kind, id string) *Error {
	return NewError(CodeNotFound, "%s '%s' not found", kind, id)
}

// Internal returns the catch-all error; its message never leaks details.
// SSE clients get a sentence that says where the details are.
func Internal() *Error {
	return NewError(CodeInternal, "An unexpected error occurred").
		ForPeople("Something unexpected went wrong inside Paige. The details are in Paige's server log.")
}

// ErrorResponse is the REST envelope {"error": {...}}.
type ErrorResponse struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is the inside of the REST envelope.
type ErrorBody struct {
	Code      Code             `json:"code"`
	Message   string           `json:"message"`
	Category  Category         `json:"category"`
	Severity  Severity         `json:"severity"`
	Timestamp string           `json:"timestamp"`
	Context   ErrorBodyContext `json:"context"`
	Details   []FieldError     `json:"details,omitempty"`
}

// ErrorBodyContext is the envelope's context object; absent values are null.
type ErrorBodyContext struct {
	SessionID    *string `json:"session_id"`
	ToolName     *string `json:"tool_name"`
	RoundNumber  *int    `json:"round_number"`
	RetryAfterMs *int64  `json:"retry_after_ms"`
}

// Response renders the REST envelope at time now.
func (e *Error) Response(now time.Time) ErrorResponse {
	return ErrorResponse{Error: ErrorBody{
		Code: e.Code, Message: e.Message, Category: e.Category, Severity: e.Severity,
		Timestamp: now.UTC().Format(time.RFC3339Nano),
		Context: ErrorBodyContext{
			SessionID: strOrNil(e.Context.SessionID), ToolName: strOrNil(e.Context.ToolName),
			RoundNumber: e.Context.RoundNumber, RetryAfterMs: e.Context.RetryAfterMs,
		},
		Details: e.Details,
	}}
}

// SSEError is the data of an SSE "error" event.
type SSEError struct {
	Code        Code     `json:"code"`
	Message     string   `json:"message"`
	Severity    Severity `json:"severity"`
	Recoverable bool     `json:"recoverable"`
	ToolName    *string  `json:"tool_name"`
	// APICode is the model API's error type (see [ErrorContext.APICode]);
	// omitted when the error did not come from the model API.
	APICode string `json:"api_code,omitempty"`
}

// ForPeople returns e with msg as the sentence SSE clients show (see
// [Error.SSE]); Message stays the precise text for logs.
func (e *Error) ForPeople(msg string) *Error { e.Context.UserMessage = msg; return e }

// SSE renders the SSE envelope {"type": "error", "data": {...}}; the
// context's UserMessage, when set, replaces the message.
func (e *Error) SSE() Event {
	msg := e.Message
	if e.Context.UserMessage != "" {
		msg = e.Context.UserMessage
	}
	return Event{Type: EventError, Data: SSEError{
		Code: e.Code, Message: msg, Severity: e.Severity,
		Recoverable: e.Recoverable(), ToolName: strOrNil(e.Context.ToolName),
		APICode: e.Context.APICode,
	}}
}

// ToolResult renders e as the JSON object the model receives as a tool
// result: status "error" (or "rejected"/"warning" for info/warning codes),
// error_code and message, plus missing_gates when relevant.
func (e *Error) ToolResult() map[string]any {
	status := "error"
	switch e.Severity {
	case SevInfo:
		status = "rejected"
	case SevWarning:
		status = "warning"
	}
	prefix := strings.ToUpper(status) + ": "
	m := map[string]any{"status": status, "error_code": string(e.Code), "message": prefix + e.Message}
	if len(e.MissingGates) > 0 {
		m["missing_gates"] = e.MissingGates
	}
	return m
}

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
