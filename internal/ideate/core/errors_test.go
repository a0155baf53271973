package core

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCodeTable(t *testing.T) {
	// The spec's quick reference, row by row.
	tests := []struct {
		code     Code
		status   int
		severity Severity
	}{
		{CodeValidation, 400, SevError},
		{CodeGatesNotSatisfied, 400, SevError},
		{CodeRoundBufferFull, 400, SevError},
		{CodeAxiomNotChallenged, 400, SevError},
		{CodeNegativeContextMissing, 400, SevError},
		{CodeIncompleteRound, 400, SevError},
		{CodeUntestedPremises, 400, SevError},
		{CodeTooObvious, 200, SevInfo},
		{CodeInvalidIndex, 400, SevError},
		{CodeNotFound, 404, SevError},
		{CodeDatabase, 503, SevCritical},
		{CodeAnthropicAPI, 503, SevCritical},
		{CodeConcurrency, 409, SevError},
		{CodeAgentLoopExceeded, 500, SevCritical},
		{CodeToolExecution, 500, SevCritical},
		{CodeUnknownTool, 400, SevError},
		{CodeAxiomNotExtracted, 200, SevWarning},
	}
	for _, tt := range tests {
		t.Run(string(tt.code), func(t *testing.T) {
			e := NewError(tt.code, "m")
			if e.Status != tt.status || e.Severity != tt.severity {
				t.Errorf("got %d/%s, want %d/%s", e.Status, e.Severity, tt.status, tt.severity)
			}
		})
	}
	cats := map[Code]Category{
		CodeValidation: CatValidation, CodeGatesNotSatisfied: CatBusinessRule, CodeNotFound: CatNotFound,
		CodeDatabase: CatDatabase, CodeAnthropicAPI: CatExternalAPI, CodeConcurrency: CatConflict,
		CodeAgentLoopExceeded: CatInternal,
	}
	for c, want := range cats {
		if got := NewError(c, "m").Category; got != want {
			t.Errorf("%s category got %s, want %s", c, got, want)
		}
	}
}

func TestRESTEnvelope(t *testing.T) {
	round := 1
	e := CheckGates(&State{CompletedGates: []AnalysisGate{GateConventional}})
	e.Context = ErrorContext{SessionID: "abc-123", ToolName: "generate_premise", RoundNumber: &round}
	b, _ := json.Marshal(e.Response(time.Date(2026, 2, 11, 14, 30, 0, 0, time.UTC)))
	var got map[string]any
	json.Unmarshal(b, &got)
	want := map[string]any{"error": map[string]any{
		"code":      "GATES_NOT_SATISFIED",
		"message":   "Cannot generate premises. Missing mandatory analysis gates: decompose_problem, extract_hidden_axioms. Call these tools first.",
		"category":  "business_rule",
		"severity":  "error",
		"timestamp": "2026-02-11T14:30:00Z",
		"context": map[string]any{
			"session_id": "abc-123", "tool_name": "generate_premise", "round_number": 1.0, "retry_after_ms": nil,
		},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSSEEnvelope(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"critical", NewError(CodeAnthropicAPI, "API rate limit exceeded").WithTool("generate_premise"),
			`{"type":"error","data":{"code":"ANTHROPIC_API_ERROR","message":"API rate limit exceeded","severity":"critical","recoverable":false,"tool_name":"generate_premise"}}`},
		{"warning is recoverable", NewError(CodeAxiomNotExtracted, "w"),
			`{"type":"error","data":{"code":"AXIOM_NOT_EXTRACTED","message":"w","severity":"warning","recoverable":true,"tool_name":null}}`},
		{"user message wins", func() *Error {
			e := NewError(CodeDatabase, "Database commit failed: disk")
			e.Context.UserMessage = "Saving failed"
			return e
		}(), `{"type":"error","data":{"code":"DATABASE_ERROR","message":"Saving failed","severity":"critical","recoverable":false,"tool_name":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(tt.err.SSE())
			if string(b) != tt.want {
				t.Errorf("got %s, want %s", b, tt.want)
			}
		})
	}
}

func TestValidationDetails(t *testing.T) {
	e := Validation(FieldError{"problem", "too short", "string_too_short"}, FieldError{"x", "y", "z"})
	b, _ := json.Marshal(e.Response(time.Unix(0, 0)))
	var got struct {
		Error struct {
			Code    string       `json:"code"`
			Details []FieldError `json:"details"`
		} `json:"error"`
	}
	json.Unmarshal(b, &got)
	if got.Error.Code != "VALIDATION_ERROR" || len(got.Error.Details) != 2 || got.Error.Details[0].Field != "problem" {
		t.Errorf("got %s", b)
	}
}

func TestEventRoundTrip(t *testing.T) {
	ev := Event{Type: EventPremises, Data: []PremiseView{{ID: "p1", PremiseText: PremiseText{Title: "T", PremiseType: PremiseRadical}}}}
	b, _ := json.Marshal(State{Pending: &ev})
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(s.Pending)
	first, _ := json.Marshal(ev)
	if string(again) != string(first) {
		t.Errorf("got %s, want %s", again, first)
	}
}

func TestContextUsage(t *testing.T) {
	got := ComputeContextUsage(250_000, 2)
	want := ContextUsage{TokensUsed: 250_000, TokensLimit: 1_000_000, TokensRemaining: 750_000, UsagePercentage: 25, EstimatedRoundsLeft: 6}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := ComputeContextUsage(0, 0).EstimatedRoundsLeft; got != 999 {
		t.Errorf("zero usage rounds left got %d, want 999", got)
	}
}
