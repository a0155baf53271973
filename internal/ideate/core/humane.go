package core

import "strings"

// ToolErrorKind tells a client how to show a tool_error.
type ToolErrorKind string

// Tool error kinds.
const (
	// KindGuardrail is the design working: the agent called a tool too
	// early or with a malformed input, was told why, and corrects itself.
	// Clients show it as progress, not as a failure.
	KindGuardrail ToolErrorKind = "guardrail"
	// KindFailure is a real problem (database, internal) worth showing.
	KindFailure ToolErrorKind = "failure"
)

// guardrails maps each guardrail code to the sentence users see; %s is the
// tool's name in words.
var guardrails = map[Code]string{
	CodeValidation:             "The agent sent %s a malformed input and is correcting it.",
	CodeGatesNotSatisfied:      "The agent tried %s before finishing the analysis; it is completing the analysis first.",
	CodeRoundBufferFull:        "The round already has three premises; the agent is moving on to testing them.",
	CodeAxiomNotChallenged:     "The agent tried a radical premise before challenging an axiom; it is challenging one first.",
	CodeNegativeContextMissing: "The agent is reviewing earlier rejected premises before generating new ones.",
	CodeIncompleteRound:        "The round is not complete yet; the agent is generating the missing premises.",
	CodeUntestedPremises:       "The agent is testing every premise for obviousness before presenting the round.",
	CodeInvalidIndex:           "The agent referred to a premise that is not in the round and is correcting it.",
	CodeUnknownTool:            "The agent asked for a tool that does not exist and is choosing another.",
	CodeFinalSpecNotAllowed:    "The agent tried to write the final spec before a premise was chosen; it is continuing the rounds.",
	CodeTooObvious:             "Checked obviousness: the premise was too obvious and was dropped; the agent is generating a better one.",
	CodeAxiomNotExtracted:      "The agent challenged an assumption it had not listed in its analysis; it continues.",
	CodeUserRecordProtected:    "The agent tried to change a premise you scored or chose; your record stays as it is.",
}

// ToolErrorView returns how a failed tool call is shown to people: its
// kind and a plain sentence without codes, field paths or internals. The
// model still receives the precise error in its tool result.
func ToolErrorView(tool string, code Code) (ToolErrorKind, string) {
	if s, ok := guardrails[code]; ok {
		return KindGuardrail, strings.Replace(s, "%s", toolWords(tool), 1)
	}
	switch code {
	case CodeDatabase:
		return KindFailure, "Saving " + toolWords(tool) + " failed; the agent will try again."
	default:
		return KindFailure, "Running " + toolWords(tool) + " failed unexpectedly; the agent will try another way."
	}
}

// toolWords renders a tool name for people: generate_premise → "generate
// premise"; an empty or odd name becomes "a tool".
func toolWords(tool string) string {
	w := strings.TrimSpace(strings.ReplaceAll(tool, "_", " "))
	if w == "" || len(w) > 40 {
		return "a tool"
	}
	return `"` + w + `"`
}
