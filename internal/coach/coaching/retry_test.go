package coaching

import (
	"context"
	"testing"

	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
)

// The pipeline's two calls both retry under the one policy: the memory
// filter (a one-shot Haiku call) after an overload, the coach agent after
// a rate limit; the kept memory still reaches the coach.
func TestPipelineCallsRetry(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	if _, err := r.mem.AddMemories(ctx, "old", "app-alpha", []memory.Memory{{Content: "Paired on the OAuth token race", Importance: "high"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.sess.Start(ctx, session.StartInput{IssueTitle: "OAuth refresh"}); err != nil {
		t.Fatal(err)
	}
	r.fake.Enqueue(
		llmtest.Error(529, "overloaded_error", "busy"),
		llmtest.JSON(memoryfilter.Response{RelevantMemories: []memoryfilter.RelevantMemory{{
			Content: "Paired on the OAuth token race", Relevance: "direct", Connection: "same race", UseInCoaching: "recall it"}},
			Discarded: []memoryfilter.Discarded{}}),
		llmtest.Error(429, "rate_limit_error", "slow down").WithHeader("retry-after-ms", "1"),
		llmtest.JSON(coachagent.Response{EstimatedDifficulty: "intermediate", Phases: []coachagent.Phase{{
			Number: 1, Title: "Find the race", Description: "Read the refresh code", ExpectedFiles: []string{},
			HintLevel: "file", Hints: coachagent.Hints{FileHints: []coachagent.FileHint{}, LineHints: []coachagent.LineHint{}},
			KnowledgeGapOpportunities: []string{}}}}),
	)
	plan, err := r.svc.RunPipeline(ctx, PipelineRequest{PlanText: "1. find the race", IssueSummary: "OAuth token refresh races"})
	if err != nil {
		t.Fatal(err)
	}
	if plan.MemoriesUsed != 1 || len(plan.Phases) != 1 {
		t.Errorf("plan: %d memories used, %d phases; want 1 and 1", plan.MemoriesUsed, len(plan.Phases))
	}
	reqs := r.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("requests: got %d, want 4 (each call failed once)", len(reqs))
	}
	if reqs[0].LastUserText() != reqs[1].LastUserText() || reqs[2].LastUserText() != reqs[3].LastUserText() {
		t.Error("a retry did not resend the same request")
	}
}
