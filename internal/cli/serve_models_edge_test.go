package cli

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/explainthis"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// EC-57: zero phases is an empty plan, not an error; EC-61: two concurrent
// runs create two plans.
func TestServeCoachingPipelineEdges(t *testing.T) {
	fake := newClaude(t)
	s, db, editor, sid := startCoaching(t, fake, "edges")
	cs := s.mcpClient(t)

	fake.Enqueue(llmtest.JSON(coachagent.Response{Phases: []coachagent.Phase{}, EstimatedDifficulty: "beginner"}))
	var out mcpapi.PipelineOut
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, &out); msg != "" {
		t.Fatal(msg)
	}
	if out.PlanID == "" || out.Phases == nil || len(out.Phases) != 0 {
		t.Errorf("empty plan result = %+v", out)
	}
	var ready wsapi.PlanReady
	editor.expect(wsapi.TypeCoachingPlanReady, &ready)
	if ready.PlanID != out.PlanID || len(ready.Phases) != 0 {
		t.Errorf("plan_ready = %+v", ready)
	}
	if p, err := db.LatestPlan(context.Background(), sid); err != nil || p.ID != out.PlanID {
		t.Errorf("stored plan = %+v, %v", p, err)
	}

	fake.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.JSON(threePhases(nil)).WithDelay(50 * time.Millisecond)
	})
	other := s.mcpClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	var wg sync.WaitGroup
	ids := make([]string, 2)
	for i, session := range []*mcp.ClientSession{cs, other} {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res, err := session.CallTool(ctx, callParams("paige_run_coaching_pipeline", pipelineArgs))
			if err != nil || res.IsError {
				t.Errorf("concurrent run %d: %v %+v", i, err, res)
				return
			}
			ids[i], _ = res.StructuredContent.(map[string]any)["planId"].(string)
		}(i)
	}
	wg.Wait()
	if ids[0] == "" || ids[0] == ids[1] {
		t.Errorf("concurrent plans = %v", ids)
	}
	for _, id := range ids {
		if phases, _ := db.Phases(context.Background(), id); len(phases) != 3 {
			t.Errorf("plan %s has %d phases", id, len(phases))
		}
	}
}

// EC-74, EC-78: the model call runs off the read loop — a file:open sent
// after a slow explain is answered first — and an empty selection is sent
// as is. EC-79: concurrent reviews of one kata both append.
func TestServeExplainReviewConcurrency(t *testing.T) {
	fake := newClaude(t)
	_, db, editor, sid := startCoaching(t, fake, "concurrency")

	fake.Enqueue(llmtest.JSON(explainthis.Response{Explanation: "slow", KeyConcepts: []string{}}).WithDelay(300 * time.Millisecond))
	editor.send(wsapi.TypeUserExplain, explainPayload(""))
	editor.send(wsapi.TypeFileOpen, map[string]any{"path": "src/auth.ts"})
	before := editor.typesUntil(wsapi.TypeExplainResponse)
	found := false
	for _, typ := range before {
		found = found || typ == wsapi.TypeFSContent
	}
	if !found {
		t.Errorf("fs:content did not arrive before the slow explain:response: %v", before)
	}
	if u := userJSON(t, fake.Requests()[0]); u["selected_code"] != "" {
		t.Errorf("empty selection sent as %v", u["selected_code"])
	}

	k := kataFixture(t, db, sid)
	fake.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.JSON(practicereview.Response{Feedback: "f", Level: 3, DreyfusSignal: "stable"}).WithDelay(50 * time.Millisecond)
	})
	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": k.ID, "userCode": "p1"})
	editor.send(wsapi.TypePracticeSubmitSolution, map[string]any{"kataId": k.ID, "code": "p2"})
	editor.expectAll(wsapi.TypeReviewResponse, wsapi.TypePracticeSolutionReview) // in either order
	stored, _ := db.Kata(context.Background(), k.ID)
	if len(stored.UserAttempts) != 4 {
		t.Errorf("attempts = %d, want 4 (2 earlier + 2 concurrent)", len(stored.UserAttempts))
	}
}

// An upstream error body never reaches the MCP client: the coaching
// pipeline's tool error says what failed in Paige's words.
func TestServeCoachingPipelineHidesUpstreamBody(t *testing.T) {
	const secret = "SECRET-MARKER-acct_8f3e"
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	editor, cs := s.ws(t), s.mcpClient(t)
	startSession(t, editor, "upstream")
	fake.Enqueue(llmtest.Error(400, "invalid_request_error", secret))
	msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, nil)
	if strings.Contains(msg, secret) || !strings.Contains(msg, "coach agent failed: The model provider rejected the request.") {
		t.Errorf("tool error = %q", msg)
	}
}
