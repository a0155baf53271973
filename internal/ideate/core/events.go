package core

import (
	"encoding/json"
	"math"
)

// EventType names an SSE event (the "type" field of every data line).
type EventType string

// The SSE event types of the spec.
const (
	EventAgentText     EventType = "agent_text"      // data: string
	EventToolCall      EventType = "tool_call"       // data: ToolCallData
	EventToolResult    EventType = "tool_result"     // data: string
	EventToolError     EventType = "tool_error"      // data: ToolErrorData
	EventPremises      EventType = "premises"        // data: []PremiseView
	EventAskUser       EventType = "ask_user"        // data: the ask_user input
	EventFinalSpec     EventType = "final_spec"      // data: string (Markdown)
	EventContextUsage  EventType = "context_usage"   // data: ContextUsage
	EventError         EventType = "error"           // data: SSEError
	EventDone          EventType = "done"            // data: DoneData
	EventSpecFileReady EventType = "spec_file_ready" // data: SpecFileData
)

// Event is one SSE message: {"type": ..., "data": ...}.
type Event struct {
	Type EventType `json:"type"`
	Data any       `json:"data"`
}

// UnmarshalJSON keeps Data as raw JSON so a persisted pending event is
// re-sent byte for byte.
func (e *Event) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type EventType       `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	e.Type, e.Data = raw.Type, raw.Data
	return nil
}

// ToolCallData is the data of a tool_call event.
type ToolCallData struct {
	Tool         string `json:"tool"`
	InputPreview string `json:"input_preview"`
}

// ToolErrorData is the data of a tool_error event. Message is written for
// people (see [ToolErrorView]); Kind says whether it is a guardrail bounce
// (progress) or a real failure.
type ToolErrorData struct {
	Tool      string        `json:"tool"`
	ErrorCode Code          `json:"error_code"`
	Message   string        `json:"message"`
	Kind      ToolErrorKind `json:"kind"`
}

// DoneData is the data of the done event that ends every run.
type DoneData struct {
	Error         bool `json:"error"`
	AwaitingInput bool `json:"awaiting_input"`
	// Cancelled is set when the run stopped because the session was cancelled.
	Cancelled bool `json:"cancelled,omitempty"`
}

// SpecFileData is the data of spec_file_ready.
type SpecFileData struct {
	DownloadURL string `json:"download_url"`
}

// PremiseView is one premise card of a premises event. ID lets clients
// score by id (NOTES.md) instead of by title. Its [Lineage] names the
// premises it came from; empty when fresh.
type PremiseView struct {
	ID string `json:"id"`
	PremiseText
	Lineage
	ObviousnessScore float64 `json:"obviousness_score"`
	RoundNumber      int     `json:"round_number"`
	BufferIndex      int     `json:"buffer_index"`
}

// Done returns the done event.
func Done(errored, awaiting bool) Event {
	return Event{Type: EventDone, Data: DoneData{Error: errored, AwaitingInput: awaiting}}
}

// ContextUsage is the data of context_usage and of get_context_usage.
type ContextUsage struct {
	TokensUsed          int64   `json:"tokens_used"`
	TokensLimit         int64   `json:"tokens_limit"`
	TokensRemaining     int64   `json:"tokens_remaining"`
	UsagePercentage     float64 `json:"usage_percentage"`
	EstimatedRoundsLeft int64   `json:"estimated_rounds_left"`
}

// ComputeContextUsage derives the usage from the tokens used so far and the
// number of rounds presented (at least 1 is assumed for the average).
func ComputeContextUsage(used int64, rounds int) ContextUsage {
	n := max(rounds, 1)
	avg := float64(used) / float64(n)
	left := int64(999)
	if avg > 0 {
		left = int64(float64(ContextLimit-used) / avg)
	}
	return ContextUsage{
		TokensUsed: used, TokensLimit: ContextLimit, TokensRemaining: ContextLimit - used,
		UsagePercentage:     math.Round(float64(used)/ContextLimit*100*100) / 100,
		EstimatedRoundsLeft: max(left, 0),
	}
}
