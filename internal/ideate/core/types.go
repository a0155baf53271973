package core

// SessionStatus is a session's lifecycle state (the sessions.status column).
type SessionStatus string

// Session statuses.
const (
	StatusCreated   SessionStatus = "created"
	StatusActive    SessionStatus = "active"
	StatusResolved  SessionStatus = "resolved"
	StatusCancelled SessionStatus = "cancelled"
)

// Valid reports whether s is one of the four statuses.
func (s SessionStatus) Valid() bool {
	switch s {
	case StatusCreated, StatusActive, StatusResolved, StatusCancelled:
		return true
	}
	return false
}

// AnalysisGate names one of the three mandatory analysis tools.
type AnalysisGate string

// The three analysis gates, in the order the spec lists them.
const (
	GateDecompose    AnalysisGate = "decompose_problem"
	GateConventional AnalysisGate = "map_conventional_approaches"
	GateAxioms       AnalysisGate = "extract_hidden_axioms"
)

// AllGates lists every gate in canonical order.
var AllGates = []AnalysisGate{GateDecompose, GateConventional, GateAxioms}

// PremiseType classifies a premise; radical needs challenge_axiom first.
type PremiseType string

// Premise types.
const (
	PremiseInitial      PremiseType = "initial"
	PremiseConservative PremiseType = "conservative"
	PremiseRadical      PremiseType = "radical"
	PremiseCombination  PremiseType = "combination"
)

// ToolCategory groups tools for the registry, dispatch and observability.
type ToolCategory string

// Tool categories.
const (
	CategoryAnalysis    ToolCategory = "analysis"
	CategoryGeneration  ToolCategory = "generation"
	CategoryInnovation  ToolCategory = "innovation"
	CategoryInteraction ToolCategory = "interaction"
	CategoryMemory      ToolCategory = "memory"
)

// Limits of the guardrails and of the agent.
const (
	// ObviousnessThreshold is the cutoff: a score strictly above it is too obvious.
	ObviousnessThreshold = 0.6
	// MaxBufferSize is the number of premises in every round.
	MaxBufferSize = 3
	// MaxIterations bounds one agent run (AGENT_LOOP_EXCEEDED beyond it).
	MaxIterations = 50
	// ContextLimit is the context window reported by context_usage.
	ContextLimit = 1_000_000
	// NegativeScoreThreshold: premises scored below it are negative context.
	NegativeScoreThreshold = 5.0
)

// Awaiting says which user input a paused session waits for.
type Awaiting string

// What a paused session waits for; empty means nothing (running or idle).
const (
	AwaitNone    Awaiting = ""
	AwaitScores  Awaiting = "scores"
	AwaitAskUser Awaiting = "ask_user"
	AwaitDone    Awaiting = "final_spec"
)
