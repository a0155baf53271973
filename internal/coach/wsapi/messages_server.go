package wsapi

import (
	"encoding/json"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Server → client message types: the 32 of the spec's catalog plus the five
// later stories add (session:completed, explain:error, review:error,
// dashboard:materials, dashboard:materials_error).
const (
	TypeConnectionInit          = "connection:init"
	TypeConnectionError         = "connection:error"
	TypeDashboardDreyfus        = "dashboard:dreyfus"
	TypeDashboardState          = "dashboard:state"
	TypeDashboardIssues         = "dashboard:issues"
	TypeDashboardIssuesError    = "dashboard:issues_error"
	TypeDashboardMaterials      = "dashboard:materials"
	TypeDashboardMaterialsError = "dashboard:materials_error"
	TypeFSTree                  = "fs:tree"
	TypeFSTreeUpdate            = "fs:tree_update"
	TypeFSContent               = "fs:content"
	TypeFSSaveAck               = "fs:save_ack"
	TypeFSSaveError             = "fs:save_error"
	TypeEditorDecorations       = "editor:decorations"
	TypeEditorClearDecorations  = "editor:clear_decorations"
	TypeEditorHoverHint         = "editor:hover_hint"
	TypeEditorOpenFile          = "editor:open_file"
	TypeEditorHighlightLines    = "editor:highlight_lines"
	TypeEditorClearHighlights   = "editor:clear_highlights"
	TypeExplorerHintFiles       = "explorer:hint_files"
	TypeExplorerClearHints      = "explorer:clear_hints"
	TypeSessionStarted          = "session:started"
	TypeSessionResumed          = "session:resumed"
	TypeSessionEnded            = "session:ended"
	TypeSessionCompleted        = "session:completed"
	TypeCoachingPhaseUpdate     = "coaching:phase_update"
	TypeCoachingMessage         = "coaching:message"
	TypeCoachingIssueContext    = "coaching:issue_context"
	TypeCoachingPlanReady       = "coaching:plan_ready"
	TypeObserverNudge           = "observer:nudge"
	TypeObserverStatus          = "observer:status"
	TypeExplainResponse         = "explain:response"
	TypeExplainError            = "explain:error"
	TypeReviewResponse          = "review:response"
	TypeReviewError             = "review:error"
	TypePracticeKataLoad        = "practice:kata_load"
	TypePracticeSolutionReview  = "practice:solution_review"
)

// Error codes carried by connection:error.
const (
	CodeInvalidJSON       = "INVALID_JSON"
	CodeInvalidMessage    = "INVALID_MESSAGE"
	CodeInvalidPayload    = "INVALID_PAYLOAD"
	CodeMessageTooLarge   = "MESSAGE_TOO_LARGE"
	CodeLimitExceeded     = "LIMIT_EXCEEDED"
	CodeNotImplemented    = "NOT_IMPLEMENTED"
	CodeNoActiveSession   = "NO_ACTIVE_SESSION"
	CodeFileError         = "FILE_ERROR"
	CodeSessionNotFound   = "SESSION_NOT_FOUND"
	CodeInternal          = "INTERNAL_ERROR"
	CodeUnsupportedBinary = "BINARY_FILE"
)

// ConnectionInit answers connection:hello.
type ConnectionInit struct {
	SessionID     string          `json:"sessionId"` // active coaching session, "" when none
	ConnectionID  string          `json:"connectionId"`
	ServerVersion string          `json:"serverVersion,omitempty"`
	Capabilities  []string        `json:"capabilities"`
	FeatureFlags  map[string]bool `json:"featureFlags"`
	// Terminal is the workbench terminal's status (absent without one).
	Terminal *TerminalStatus `json:"terminal,omitempty"`
}

// ConnectionError reports a problem with a client message or a backend error.
type ConnectionError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Context map[string]any `json:"context,omitempty"`
}

// TreeNode is one file or directory of the project tree (the workspace's
// node: name, project-relative path, type "file" or "directory", children).
type TreeNode = workspace.Node

// FSTree is the whole project tree, sent when a session starts or resumes
// and after a burst of file changes.
type FSTree struct {
	Root *TreeNode `json:"root"`
	// Reason is "" when a session starts or resumes, and "refresh" when the
	// tree is sent again because too many files changed at once to send
	// them as fs:tree_update messages (see [ForwardTreeUpdates]).
	Reason string `json:"reason,omitempty"`
}

// FSTreeUpdate is one watcher event: action is "add", "change", "unlink",
// "addDir" or "unlinkDir".
type FSTreeUpdate struct {
	Action  string `json:"action"`
	Path    string `json:"path"`
	NewPath string `json:"newPath,omitempty"`
}

// FileContent is the payload of fs:content and editor:open_file: {path,
// content, language, lineCount, binary?, size} (content empty for binary
// files).
type FileContent = workspace.File

// FSSaveAck confirms a save; Timestamp is Unix ms.
type FSSaveAck struct {
	Path      string `json:"path"`
	Success   bool   `json:"success"`
	Timestamp int64  `json:"timestamp"`
}

// FSSaveError reports a failed save.
type FSSaveError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// EditorDecorations replaces Paige's decorations on Path.
type EditorDecorations struct {
	Path        string            `json:"path"`
	Decorations []json.RawMessage `json:"decorations"`
}

// PathOptional is the payload of editor:clear_decorations and
// editor:clear_highlights: no path means every file.
type PathOptional struct {
	Path string `json:"path,omitempty"`
}

// EditorHoverHint shows a hover popover.
type EditorHoverHint struct {
	Path     string `json:"path"`
	Range    Range  `json:"range"`
	HintText string `json:"hintText"`
}

// HighlightLines is the payload of editor:highlight_lines.
type HighlightLines struct {
	Path      string `json:"path"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Style     string `json:"style"`
	HoverText string `json:"hoverText,omitempty"`
}

// FileHint is one explorer glow.
type FileHint struct {
	Path        string   `json:"path"`
	Style       string   `json:"style"`
	Directories []string `json:"directories,omitempty"`
}

// ExplorerHintFiles is the payload of explorer:hint_files.
type ExplorerHintFiles struct {
	Hints []FileHint `json:"hints"`
}

// PhaseSummary is a phase as the UI shows it.
type PhaseSummary struct {
	ID          string `json:"id,omitempty"`
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status"`
	HintLevel   string `json:"hintLevel,omitempty"`
}

// IssueContext is the payload of coaching:issue_context.
type IssueContext struct {
	Number  int      `json:"number,omitempty"`
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
	Labels  []string `json:"labels,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// SessionStarted announces a new session.
type SessionStarted struct {
	SessionID    string         `json:"sessionId"`
	IssueContext *IssueContext  `json:"issueContext"`
	Phases       []PhaseSummary `json:"phases"`
	HintLevel    string         `json:"hintLevel"`
	OpenFiles    []string       `json:"openFiles,omitempty"`
}

// SessionResumed announces a reactivated session.
type SessionResumed struct {
	RestoredState RestoredState `json:"restoredState"`
}

// RestoredState is what the UI needs to rebuild a resumed session.
type RestoredState struct {
	SessionID    string         `json:"sessionId"`
	IssueContext *IssueContext  `json:"issueContext"`
	Phases       []PhaseSummary `json:"phases"`
	OpenFiles    []string       `json:"openFiles"`
	StartedAt    string         `json:"startedAt"`
}

// SessionEnded answers session:end.
type SessionEnded struct {
	Summary SessionSummary `json:"summary"`
}

// SessionSummary describes an ended session.
type SessionSummary struct {
	SessionID  string `json:"sessionId"`
	Status     string `json:"status"`
	StartedAt  string `json:"startedAt"`
	EndedAt    string `json:"endedAt"`
	DurationMs int64  `json:"durationMs"`
}

// SessionCompleted follows paige_end_session's wrap-up (story 9).
type SessionCompleted struct {
	SessionID      string `json:"sessionId"`
	KnowledgeGaps  int    `json:"knowledgeGaps"`
	KataSpecs      int    `json:"kataSpecs"`
	DreyfusUpdates int    `json:"dreyfusUpdates"`
	MemoriesStored int    `json:"memoriesStored"`
}

// PhaseUpdate is the payload of coaching:phase_update.
type PhaseUpdate struct {
	Phase       PhaseSummary `json:"phase"`
	Status      string       `json:"status"`
	Description string       `json:"description"`
}

// CoachingMessage is a toast or an anchored comment balloon.
type CoachingMessage struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Anchor  *Anchor `json:"anchor,omitempty"`
}

// Anchor pins a coaching message to a place in a file.
type Anchor struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine,omitempty"`
}

// PlanReady announces a coaching plan (story 9).
type PlanReady struct {
	PlanID              string         `json:"planId"`
	Phases              []PhaseSummary `json:"phases"`
	MemoryConnection    *string        `json:"memoryConnection"`
	EstimatedDifficulty string         `json:"estimatedDifficulty"`
}

// ObserverNudge asks the terminal side to nudge the user (story 10).
type ObserverNudge struct {
	Signal     string         `json:"signal"`
	Confidence float64        `json:"confidence"`
	Context    map[string]any `json:"context"`
}

// ObserverStatus reports the Observer's state.
type ObserverStatus struct {
	Active         bool    `json:"active"`
	Muted          bool    `json:"muted"`
	LastEvaluation *string `json:"lastEvaluation"`
}

// ExplainResponse answers user:explain (story 11).
type ExplainResponse struct {
	Path            string   `json:"path"`
	Explanation     string   `json:"explanation"`
	KeyConcepts     []string `json:"keyConcepts"`
	Analogy         *string  `json:"analogy"`
	RelatedFiles    []string `json:"relatedFiles"`
	PhaseConnection *string  `json:"phaseConnection"`
}

// ExplainError reports a failed explanation.
type ExplainError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Constraint is a kata constraint unlocked at MinLevel.
type Constraint struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	MinLevel    int    `json:"minLevel"`
}

// FollowUp is what a review suggests next.
type FollowUp struct {
	Type       string `json:"type"`
	Constraint string `json:"constraint,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// ReviewResponse answers user:review; practice:solution_review carries the
// same fields (NOTES.md › practice review).
type ReviewResponse struct {
	KataID              string       `json:"kataId"`
	Correct             bool         `json:"correct"`
	Feedback            string       `json:"feedback"`
	Level               int          `json:"level"`
	Passed              bool         `json:"passed"`
	FollowUp            *FollowUp    `json:"followUp"`
	DreyfusSignal       string       `json:"dreyfusSignal"`
	UnlockedConstraints []Constraint `json:"unlockedConstraints"`
}

// ReviewError reports a failed review.
type ReviewError struct {
	KataID string `json:"kataId"`
	Error  string `json:"error"`
}

// KataLoad opens a kata in practice mode (the answer to practice:open).
type KataLoad struct {
	Kata        Kata         `json:"kata"`
	Constraints []Constraint `json:"constraints"`
}

// ErrorText is the payload of dashboard:issues_error and dashboard:materials_error.
type ErrorText struct {
	Error string `json:"error"`
}
