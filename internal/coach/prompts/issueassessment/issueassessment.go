// Package issueassessment is the Issue Assessment prompt (Sonnet, spec story
// 12 module 1): it ranks the project's open GitHub issues by learning
// suitability for the user and writes a Paige-voice summary of each.
package issueassessment

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "issue_assessment"
	Tier     = llm.Sonnet
)

// Limits applied by Assemble. EC-89: issue bodies are cut to 2000 characters
// each. The spec says nothing about comments; we cut their bodies the same
// way and keep the last MaxComments per issue, so 50 long threads cannot
// blow the context.
const (
	MaxBodyChars = 2000
	MaxComments  = 10
	MaxIssues    = 10 // the reply lists at most this many issues
)

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are Paige's issue curation engine — part of an AI coding coach for junior developers.
You assess GitHub issues against the user's skill profile and rank them by learning suitability.

Select the top 10 most suitable issues for this user. Prioritise:
1. Issues the user is tagged in or assigned to
2. Issues that address known knowledge gaps
3. Issues similar to recent work (building on momentum)
4. Issues at or slightly above the user's Dreyfus stage

For each selected issue, write a concise summary in Paige's voice — calibrated to the user's level, not raw GitHub prose.

Suitability levels:
- good_fit: Within or slightly above current ability. Recommended.
- stretch: Notably above current ability. Challenging but achievable with effort.
- too_advanced: Significantly beyond current skills. Not recommended yet.`

// Response is the ranked selection.
type Response struct {
	Issues []Assessed `json:"issues"`
}

// Assessed is one selected issue.
type Assessed struct {
	Number                int             `json:"number"`
	Title                 string          `json:"title"`
	Summary               string          `json:"summary" jsonschema:"Paige-voice digest of the issue"`
	Suitability           string          `json:"suitability"`
	SuitabilityReason     string          `json:"suitability_reason"`
	EstimatedDifficulty   string          `json:"estimated_difficulty"`
	RelevantSkills        []string        `json:"relevant_skills"`
	PriorityScore         float64         `json:"priority_score"`
	PriorityFactors       PriorityFactors `json:"priority_factors"`
	LearningOpportunities []string        `json:"learning_opportunities"`
}

// PriorityFactors explain an issue's priority score.
type PriorityFactors struct {
	UserTagged            bool   `json:"user_tagged"`
	SimilarToRecentWork   bool   `json:"similar_to_recent_work"`
	AddressesKnowledgeGap bool   `json:"addresses_knowledge_gap"`
	TeamUrgency           string `json:"team_urgency"`
}

// Enum values of the response.
var (
	Suitabilities = []string{"good_fit", "stretch", "too_advanced"}
	Difficulties  = []string{"beginner", "intermediate", "advanced"}
	Urgencies     = []string{"low", "medium", "high"}
)

// CustomizeSchema adds the enums, ranges and the 10-issue limit.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.MaxItems("issues", MaxIssues),
		llm.Min("issues[].number", 1),
		llm.Enum("issues[].suitability", Suitabilities...),
		llm.Enum("issues[].estimated_difficulty", Difficulties...),
		llm.Range("issues[].priority_score", 0, 1),
		llm.Enum("issues[].priority_factors.team_urgency", Urgencies...),
	)
}

// Issue is one open issue as `gh issue list --json
// number,title,body,labels,assignees,comments` prints it; unknown fields are
// ignored when decoding gh's output into []Issue.
type Issue struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	Labels    []Label   `json:"labels"`
	Assignees []User    `json:"assignees"`
	Comments  []Comment `json:"comments"`
}

// Label is an issue label.
type Label struct {
	Name string `json:"name"`
}

// User is a GitHub user.
type User struct {
	Login string `json:"login"`
}

// Comment is an issue comment.
type Comment struct {
	Author User   `json:"author"`
	Body   string `json:"body"`
}

// Stage is a stored Dreyfus assessment.
type Stage struct {
	SkillArea  string  `json:"skill_area"`
	Stage      string  `json:"stage"`
	Confidence float64 `json:"confidence"`
}

// RecentSession is a recently completed session.
type RecentSession struct {
	IssueTitle  *string `json:"issueTitle"`
	CompletedAt string  `json:"completedAt"`
}

// Gap is a known knowledge gap.
type Gap struct {
	Topic    string `json:"topic"`
	Severity string `json:"severity"`
}

// Memory is a related memory.
type Memory struct {
	Content    string `json:"content"`
	Connection string `json:"connection,omitempty"`
}

// Assemble builds the user message: {github_issues, user_dreyfus_stages,
// recent_sessions, knowledge_gaps, related_memories}, with issue and comment
// bodies cut to MaxBodyChars and the last MaxComments comments per issue.
func Assemble(issues []Issue, stages []Stage, recent []RecentSession, gaps []Gap, memories []Memory) string {
	trimmed := make([]Issue, 0, len(issues))
	for _, is := range issues {
		is.Body = prompts.Truncate(is.Body, MaxBodyChars)
		is.Labels, is.Assignees = prompts.List(is.Labels), prompts.List(is.Assignees)
		comments := is.Comments
		if len(comments) > MaxComments {
			comments = comments[len(comments)-MaxComments:]
		}
		is.Comments = make([]Comment, 0, len(comments))
		for _, c := range comments {
			c.Body = prompts.Truncate(c.Body, MaxBodyChars)
			is.Comments = append(is.Comments, c)
		}
		trimmed = append(trimmed, is)
	}
	return prompts.JSON(struct {
		GitHubIssues      []Issue         `json:"github_issues"`
		UserDreyfusStages []Stage         `json:"user_dreyfus_stages"`
		RecentSessions    []RecentSession `json:"recent_sessions"`
		KnowledgeGaps     []Gap           `json:"knowledge_gaps"`
		RelatedMemories   []Memory        `json:"related_memories"`
	}{trimmed, prompts.List(stages), prompts.List(recent), prompts.List(gaps), prompts.List(memories)})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
