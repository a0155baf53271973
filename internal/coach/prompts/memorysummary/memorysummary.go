// Package memorysummary is the Memory Summarisation prompt (Haiku, spec
// story 9 module 5): it condenses a finished session into searchable
// memories for future sessions.
package memorysummary

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "memory_summarisation"
	Tier     = llm.Haiku
)

// MaxTranscriptChars bounds the transcript sent (EC-63: transcripts over 50k
// characters are truncated to fit Haiku's context). Longer transcripts keep
// their first quarter and last three quarters (prompts.TruncateMiddle).
const MaxTranscriptChars = 50_000

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are Paige's memory curator. Summarise a coding coaching session into
concise, searchable memories for future retrieval. Each memory should capture one meaningful insight —
what was worked on, what was learned, what was struggled with, or what the user demonstrated competence in.
Tag memories for semantic search. Only persist what would be useful in a future coaching session.`

// Response is the curator's reply.
type Response struct {
	Memories []Memory `json:"memories"`
}

// Memory is one memory to store.
type Memory struct {
	Content    string   `json:"content" jsonschema:"Concise memory text for embedding and future retrieval"`
	Tags       []string `json:"tags"`
	Importance string   `json:"importance"`
}

// Importances are the importance levels.
var Importances = []string{"low", "medium", "high"}

// CustomizeSchema adds the importance enum.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s, llm.Enum("memories[].importance", Importances...))
}

// Phase is a completed phase.
type Phase struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Gap is a knowledge gap found in the session.
type Gap struct {
	Topic    string `json:"topic"`
	Severity string `json:"severity"`
}

// Assemble builds the user message: {transcript, issue, phases, gaps}, the
// transcript cut to MaxTranscriptChars.
func Assemble(transcript, issueTitle string, phases []Phase, gaps []Gap) string {
	return prompts.JSON(struct {
		Transcript string  `json:"transcript"`
		Issue      string  `json:"issue"`
		Phases     []Phase `json:"phases"`
		Gaps       []Gap   `json:"gaps"`
	}{prompts.TruncateMiddle(transcript, MaxTranscriptChars), issueTitle, prompts.List(phases), prompts.List(gaps)})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
