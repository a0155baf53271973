// Package memoryfilter is the Memory Retrieval Filter prompt (Haiku, spec
// story 9 module 1): it keeps the semantically retrieved memories that are
// really relevant to the current issue and says how to use each.
package memoryfilter

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "memory_retrieval_filter"
	Tier     = llm.Haiku
)

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are a memory relevance filter for an AI coding coach called Paige.
You receive a set of past coaching memories retrieved by semantic search, plus the current issue context.
Your job: determine which memories are genuinely relevant to the current issue and explain HOW to use each one in coaching.
Discard memories that are superficially similar but not actually useful.`

// Response is the filter's reply.
type Response struct {
	RelevantMemories []RelevantMemory `json:"relevant_memories"`
	Discarded        []Discarded      `json:"discarded"`
}

// RelevantMemory is a memory worth using, with how to use it.
type RelevantMemory struct {
	Content       string `json:"content" jsonschema:"The original memory text"`
	Relevance     string `json:"relevance"`
	Connection    string `json:"connection" jsonschema:"How this memory connects to the current issue"`
	UseInCoaching string `json:"use_in_coaching" jsonschema:"How the coach should reference this memory"`
}

// Discarded is a memory dropped, with why.
type Discarded struct {
	Content string `json:"content"`
	Reason  string `json:"reason"`
}

// Relevances are the relevance levels.
var Relevances = []string{"direct", "related", "contextual"}

// CustomizeSchema adds the relevance enum.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s, llm.Enum("relevant_memories[].relevance", Relevances...))
}

// Candidate is a memory as semantic search returned it.
type Candidate struct {
	Content  string         `json:"content"`
	Metadata map[string]any `json:"metadata"`
}

// Assemble builds the user message: {issue_summary, plan_summary, candidate_memories}.
func Assemble(issueSummary, planText string, candidates []Candidate) string {
	return prompts.JSON(struct {
		IssueSummary      string      `json:"issue_summary"`
		PlanSummary       string      `json:"plan_summary"`
		CandidateMemories []Candidate `json:"candidate_memories"`
	}{issueSummary, planText, prompts.List(candidates)})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
