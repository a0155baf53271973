// Package learn holds the domain types of Paige's shadow learning (the
// Galatea plan): transcript turns, signal classifications, knowledge entries
// and extraction statistics. It has no I/O; its subpackages do the work:
//
//   - transcript reads Claude Code JSONL session files into [Turn]s,
//   - classify decides which user turns carry a learnable signal,
//   - extract turns signal turns into [Entry]s (Claude, Ollama or heuristics),
//   - knowledge keeps entries in an append-only JSONL store and renders knowledge.md,
//   - trail mines the tool trail (commands, edits, MCP calls) for procedures and facts,
//   - pipeline runs read → classify → extract → dedup → store over transcripts,
//   - learncontext assembles a system prompt from preprompts and knowledge,
//   - chat talks to a model with that prompt, httpapi serves it all over HTTP.
package learn

import "strings"

// KnowledgeType is the kind of a knowledge entry.
type KnowledgeType string

// The knowledge types of the plan.
const (
	Preference KnowledgeType = "preference"
	Fact       KnowledgeType = "fact"
	Rule       KnowledgeType = "rule"
	Procedure  KnowledgeType = "procedure"
	Correction KnowledgeType = "correction"
	Decision   KnowledgeType = "decision"
)

// KnowledgeTypes lists every valid KnowledgeType in rendering order.
var KnowledgeTypes = []KnowledgeType{Preference, Fact, Rule, Procedure, Correction, Decision}

// Valid reports whether t is one of [KnowledgeTypes].
func (t KnowledgeType) Valid() bool {
	for _, k := range KnowledgeTypes {
		if k == t {
			return true
		}
	}
	return false
}

// Tier orders knowledge types for presentation: 0 for what to do (rules
// and procedures), 2 for facts, 1 for the rest.
func (t KnowledgeType) Tier() int {
	switch t {
	case Rule, Procedure:
		return 0
	case Fact:
		return 2
	}
	return 1
}

// Entry is one piece of learned knowledge. ID is unique within a store;
// SupersededBy, when set, names the entry that replaces this one; Forgotten
// marks an entry the user asked to forget. Superseded and forgotten entries
// stay in the store's history but are never shown or injected. Pinned marks
// an entry the user pinned: context assembly takes pinned entries first.
type Entry struct {
	ID           string        `json:"id"`
	Type         KnowledgeType `json:"type"`
	Content      string        `json:"content"`
	Confidence   float64       `json:"confidence"`
	Entities     []string      `json:"entities"`
	Evidence     string        `json:"evidence,omitempty"`
	Source       string        `json:"source"`      // e.g. "session:8be0af56" or "manual"
	ExtractedAt  string        `json:"extractedAt"` // ISO 8601 UTC
	SupersededBy string        `json:"supersededBy,omitempty"`
	Forgotten    bool          `json:"forgotten,omitempty"`
	Pinned       bool          `json:"pinned,omitempty"`
	// Project is the identity of the project the entry belongs to
	// (internal/project: a git common directory or an absolute path);
	// empty means it holds everywhere.
	Project string `json:"project,omitempty"`
	// Observed is set on entries learned from behaviour (tool trails):
	// what was seen, how often and where.
	Observed *Observed `json:"observed,omitempty"`
}

// MaxObservedSessions bounds [Observed.Sessions]: the most recent ones are
// kept, [Observed.SessionCount] keeps counting.
const MaxObservedSessions = 20

// Observed is the evidence of an entry learned from behaviour. Key
// identifies the behaviour within its project (a repeated procedure updates
// the entry with the same Project and Key instead of adding another).
type Observed struct {
	Key          string   `json:"key"`
	Sessions     []string `json:"sessions"`     // sources, oldest first, at most MaxObservedSessions
	SessionCount int      `json:"sessionCount"` // distinct sessions it was seen in
	Runs         int      `json:"runs"`         // successful occurrences in all of them
	// Final counts the sessions in which it was the final green run of its
	// kind (the last successful test, lint or check command).
	Final int `json:"final,omitempty"`
}

// Established reports whether e is worth bringing into a session: anything
// said, and behaviour that recurs (two runs or more, or two sessions) or
// was a session's final green run. A command run once is evidence only
// ("mix run -e …"), and so is a file-edit statistic from older versions.
func (e Entry) Established() bool {
	o := e.Observed
	if o == nil {
		return true
	}
	if strings.HasPrefix(o.Key, "fact:often edited:") {
		return false
	}
	if e.Type != Procedure {
		return true
	}
	return o.Runs >= 2 || o.SessionCount >= 2 || o.Final > 0
}

// Active reports whether e is neither superseded nor forgotten.
func (e Entry) Active() bool { return e.SupersededBy == "" && !e.Forgotten }

// Role is who spoke a turn.
type Role string

// Turn roles.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// ToolUse is one tool call made in an assistant turn; Input is the call's
// arguments as compact JSON.
type ToolUse struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name"`
	Input string `json:"input"`
}

// ToolResult is the (shortened) result of a tool call.
type ToolResult struct {
	ToolUseID string `json:"toolUseId,omitempty"`
	Content   string `json:"content"`
	IsError   bool   `json:"isError"`
}

// Turn is one conversational turn: a user message or one whole assistant
// message (all its content blocks merged). Content holds only human-readable
// text, harness wrappers removed. Sidechain is set for subagent turns.
type Turn struct {
	Role        Role         `json:"role"`
	Content     string       `json:"content"`
	ToolUse     []ToolUse    `json:"toolUse,omitempty"`
	ToolResults []ToolResult `json:"toolResults,omitempty"`
	MessageID   string       `json:"messageId,omitempty"`
	Sidechain   bool         `json:"sidechain,omitempty"`
	// Cwd is the working directory recorded on the turn's (first) line;
	// empty when the transcript has none.
	Cwd string `json:"cwd,omitempty"`
	// GitBranch is the git branch recorded on that line; empty when none.
	GitBranch string `json:"gitBranch,omitempty"`
	// Interrupted is set on a user turn that follows the user stopping the
	// assistant ("[Request interrupted by user…]") or refusing a tool call:
	// what it says often corrects what was stopped.
	Interrupted bool `json:"interrupted,omitempty"`
	// Refused is, on such a user turn, the tool call the user refused or
	// interrupted (nil when none was under way). A user turn that is the
	// reason typed when refusing a tool call has Interrupted and Refused set.
	Refused *ToolUse `json:"refused,omitempty"`
}

// SignalType is what the classifier found in a turn.
type SignalType string

// Signal types: the plan's six plus procedure and the explicit @remember /
// @forget commands.
const (
	SignalPreference SignalType = "preference"
	SignalCorrection SignalType = "correction"
	SignalPolicy     SignalType = "policy"
	SignalDecision   SignalType = "decision"
	SignalProcedure  SignalType = "procedure"
	SignalFactual    SignalType = "factual"
	SignalRemember   SignalType = "remember"
	SignalForget     SignalType = "forget"
	SignalNoise      SignalType = "noise"
)

// Classification is the classifier's verdict on one turn. Pattern names the
// rule that matched; Match is the sentence it matched in (empty for noise).
type Classification struct {
	Type       SignalType `json:"type"`
	Pattern    string     `json:"pattern,omitempty"`
	Confidence float64    `json:"confidence"`
	Match      string     `json:"match,omitempty"`
}

// Stats are the plan's extraction statistics for one run.
type Stats struct {
	TurnsProcessed    int `json:"turnsProcessed"`
	SignalTurns       int `json:"signalTurns"`
	NoiseTurns        int `json:"noiseTurns"`
	EntriesExtracted  int `json:"entriesExtracted"`
	DuplicatesSkipped int `json:"duplicatesSkipped"`
	// Beyond the plan: lines the reader could not parse, entries forgotten
	// through @forget, older entries superseded by new ones, and whether the
	// transcript was skipped as already extracted.
	MalformedLines    int  `json:"malformedLines"`
	EntriesForgotten  int  `json:"entriesForgotten,omitempty"`
	EntriesSuperseded int  `json:"entriesSuperseded,omitempty"`
	AlreadyExtracted  bool `json:"alreadyExtracted,omitempty"`
	// Learned from the tool trail: new entries (also counted in
	// EntriesExtracted) and existing ones whose evidence grew.
	BehaviourEntries int `json:"behaviourEntries,omitempty"`
	EntriesUpdated   int `json:"entriesUpdated,omitempty"`
}

// Add accumulates o into s (AlreadyExtracted is left as is).
func (s *Stats) Add(o Stats) {
	s.TurnsProcessed += o.TurnsProcessed
	s.SignalTurns += o.SignalTurns
	s.NoiseTurns += o.NoiseTurns
	s.EntriesExtracted += o.EntriesExtracted
	s.DuplicatesSkipped += o.DuplicatesSkipped
	s.MalformedLines += o.MalformedLines
	s.EntriesForgotten += o.EntriesForgotten
	s.EntriesSuperseded += o.EntriesSuperseded
	s.BehaviourEntries += o.BehaviourEntries
	s.EntriesUpdated += o.EntriesUpdated
}
