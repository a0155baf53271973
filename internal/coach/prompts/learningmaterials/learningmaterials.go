// Package learningmaterials is the Learning Materials prompt (Sonnet with
// the web search connector tool, spec story 12 module 2): it finds learning
// resources for the user's top knowledge gaps.
package learningmaterials

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "learning_materials"
	Tier     = llm.Sonnet
)

// MaxSearches bounds the web searches of one call (each costs money; five
// gaps, a few searches each).
const MaxSearches = 10

// SystemPromptTemplate is the spec's system prompt; {dreyfus_stage} is
// replaced by System.
const SystemPromptTemplate = `You are Paige's learning materials researcher — part of an AI coding coach for junior developers.
You find high-quality learning resources for identified knowledge gaps.

User's overall Dreyfus stage: {dreyfus_stage}

For each knowledge gap, use the web_search tool to find current, relevant resources:
- Official documentation (always include if available)
- Well-known tutorials and articles
- Video explanations from established channels
- Content appropriate for the user's skill level

Provide a study order and connect resources back to available practice katas where relevant.
Prefer resources that are:
- Free and publicly accessible
- From authoritative sources (official docs, well-known authors)
- At the right level for the user's Dreyfus stage`

// System returns the system prompt for dreyfusStage ("novice" when empty).
func System(dreyfusStage string) string { return prompts.ForStage(SystemPromptTemplate, dreyfusStage) }

// Response is the researcher's reply.
type Response struct {
	Recommendations []Recommendation `json:"recommendations"`
}

// Recommendation is the resources for one gap.
type Recommendation struct {
	KnowledgeGap       string     `json:"knowledge_gap"`
	Resources          []Resource `json:"resources"`
	StudyOrder         string     `json:"study_order" jsonschema:"Recommended order to consume resources"`
	PracticeConnection *string    `json:"practice_connection" jsonschema:"Link to relevant kata, or null"`
}

// Resource is one learning resource.
type Resource struct {
	Type          string `json:"type"`
	Title         string `json:"title"`
	URL           string `json:"url"`
	Description   string `json:"description"`
	Relevance     string `json:"relevance"`
	EstimatedTime string `json:"estimated_time"`
}

// Enum values of the response.
var (
	ResourceTypes = []string{"documentation", "article", "video", "tutorial"}
	Relevances    = []string{"direct", "deep_dive", "supplementary"}
)

// CustomizeSchema adds the enums and the URL format.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Enum("recommendations[].resources[].type", ResourceTypes...),
		llm.Format("recommendations[].resources[].url", "uri"),
		llm.Enum("recommendations[].resources[].relevance", Relevances...),
	)
}

// Gap is a knowledge gap to research.
type Gap struct {
	Topic           string   `json:"topic"`
	Severity        string   `json:"severity"`
	RelatedConcepts []string `json:"relatedConcepts"`
	Frequency       int      `json:"frequency"`
}

// Assemble builds the user message: {knowledge_gaps, tech_stack, available_katas}.
func Assemble(gaps []Gap, techStack string, kataTitles []string) string {
	out := make([]Gap, 0, len(gaps))
	for _, g := range gaps {
		g.RelatedConcepts = prompts.List(g.RelatedConcepts)
		out = append(out, g)
	}
	return prompts.JSON(struct {
		KnowledgeGaps  []Gap    `json:"knowledge_gaps"`
		TechStack      string   `json:"tech_stack"`
		AvailableKatas []string `json:"available_katas"`
	}{out, techStack, prompts.List(kataTitles)})
}

// Request returns the llm.Request for user (from Assemble) at dreyfusStage,
// with the web_search_20250305 connector tool (D83).
func Request(sessionID, dreyfusStage, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: System(dreyfusStage), User: user,
		WebSearch: &llm.WebSearch{MaxUses: MaxSearches}}
}
