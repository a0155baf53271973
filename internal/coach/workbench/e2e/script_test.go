package e2e

import (
	"fmt"
	"sync"

	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/explainthis"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/learningmaterials"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// model is the scripted Claude of the journey: each request is answered by
// what its structured-output schema asks for (the coach plan, an
// explanation, the wrap-up's three calls, a review, the Observer's triage).
// The Observer answers "no nudge" until arm() is called, then nudges once.
// Safe for concurrent use.
type model struct {
	mu       sync.Mutex
	armed    bool
	counts   map[string]int
	problems []string
}

func ptr[T any](v T) *T { return &v }

func (m *model) arm() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armed = true
}

func (m *model) count(kind string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[kind]
}

func (m *model) problemList() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.problems...)
}

// requestKinds names a request by a property its output schema has, the
// first match winning.
var requestKinds = []struct{ prop, kind string }{
	{"should_nudge", "triage"}, {"phases", "plan"}, {"explanation", "explain"},
	{"knowledge_gaps", "gaps"}, {"assessments", "dreyfus"}, {"memories", "memories"},
	{"feedback", "review"}, {"relevant_memories", "memory_filter"}, {"recommendations", "materials"},
}

func (m *model) reply(r llmtest.Request) llmtest.Response {
	props, _ := r.Schema()["properties"].(map[string]any)
	kind := ""
	for _, k := range requestKinds {
		if _, ok := props[k.prop]; ok {
			kind = k.kind
			break
		}
	}
	m.mu.Lock()
	if m.counts == nil {
		m.counts = map[string]int{}
	}
	m.counts[kind]++
	nudge := kind == "triage" && m.armed
	if nudge {
		m.armed = false
	}
	if kind == "" {
		m.problems = append(m.problems, fmt.Sprintf("unexpected request with schema %v", props))
	}
	m.mu.Unlock()
	if v := answer(kind, nudge); v != nil {
		return llmtest.JSON(v).WithUsage(900, 200)
	}
	return llmtest.Error(500, "api_error", "the journey's script has no answer for this request")
}

func answer(kind string, nudge bool) any {
	switch kind {
	case "triage":
		if !nudge {
			return observertriage.Response{Signal: "no_nudge", Reasoning: "all fine"}
		}
		return observertriage.Response{ShouldNudge: true, Confidence: 0.9, Signal: "wrong_file", Reasoning: "left the cart",
			SuggestedContext: observertriage.SuggestedContext{ExpectedFile: ptr("src/cart.ts"), PhaseDescription: ptr("Multiply each price by its quantity")}}
	case "plan":
		return coachagent.Response{EstimatedDifficulty: "beginner", Phases: []coachagent.Phase{
			{Number: 1, Title: "Read the cart", Description: "Find where the total is computed.", ExpectedFiles: []string{"src/cart.ts"}, HintLevel: "file",
				Hints: coachagent.Hints{FileHints: []coachagent.FileHint{{Path: "src/cart.ts", Style: "suggested"}}, LineHints: []coachagent.LineHint{}}, KnowledgeGapOpportunities: []string{}},
			{Number: 2, Title: "Multiply by quantity", Description: "Use price × quantity in the reducer.", ExpectedFiles: []string{"src/cart.ts"}, HintLevel: "line",
				Hints: coachagent.Hints{FileHints: []coachagent.FileHint{}, LineHints: []coachagent.LineHint{}}, KnowledgeGapOpportunities: []string{"reduce"}},
		}}
	case "explain":
		return explainthis.Response{Explanation: "reduce folds the items into one number, starting from 0.", KeyConcepts: []string{"accumulator", "Array.prototype.reduce"},
			Analogy: ptr("Like a cashier adding each item to a running total."), RelatedFiles: []string{"package.json"}}
	case "gaps":
		return knowledgegaps.Response{
			KnowledgeGaps: []knowledgegaps.Gap{{Topic: "typescript", Evidence: "forgot the quantity", Severity: "medium", RelatedConcepts: []string{"reduce"}}},
			KataSpecs: []knowledgegaps.KataSpec{{Title: "Sum with quantities", Description: "Write sum(items) that multiplies price by quantity.",
				ScaffoldingCode: "export function sum(items: { price: number; quantity: number }[]): number {\n  return 0;\n}\n",
				TestCases:       []string{"sum([]) === 0"}, Constraints: []string{"Use reduce", "No mutation"}, FollowUpConstraint: ptr("One line")}},
			SessionSummary: knowledgegaps.SessionSummary{PhasesCompleted: 1, TotalTimeMinutes: 3, HintsUsed: 1},
		}
	case "dreyfus":
		return dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{
			{SkillArea: "typescript", Stage: "competent", Confidence: 0.8, Evidence: "fixed the total", Recommendation: "fewer hints"}}}
	case "memories":
		return memorysummary.Response{Memories: []memorysummary.Memory{{Content: "Cart totals need quantities.", Tags: []string{"cart"}, Importance: "medium"}}}
	case "review":
		return practicereview.Response{Correct: true, Feedback: "Nice use of reduce.", Level: 5, Passed: true,
			FollowUp: &practicereview.FollowUp{Type: "constraint_escalation", Reason: "try it without a loop"}, DreyfusSignal: "advancing"}
	case "memory_filter":
		return memoryfilter.Response{RelevantMemories: []memoryfilter.RelevantMemory{}, Discarded: []memoryfilter.Discarded{}}
	case "materials":
		return learningmaterials.Response{Recommendations: []learningmaterials.Recommendation{}}
	}
	return nil
}
