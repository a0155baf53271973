package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/explainthis"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func explainPayload(selected string) map[string]any {
	return map[string]any{"path": "src/auth.ts", "language": "typescript",
		"selection":    map[string]int{"startLine": 2, "startCol": 3, "endLine": 2, "endCol": 15},
		"selectedText": selected, "surroundingContext": "export function login() {\n  return true;\n}\n"}
}

// Scenarios 11.1 and 11.3: no session, no assessments → novice, no phase.
func TestServeExplainWithoutSession(t *testing.T) {
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	db := openDB(t, s)
	editor, other := s.ws(t), s.ws(t)
	fake.Enqueue(llmtest.JSON(explainthis.Response{Explanation: "It returns true.", KeyConcepts: []string{"return"}}))
	editor.send(wsapi.TypeUserExplain, explainPayload("return true;"))
	var got wsapi.ExplainResponse
	env := editor.expect(wsapi.TypeExplainResponse, &got)
	other.expect(wsapi.TypeExplainResponse, nil) // broadcast (D26)
	want := wsapi.ExplainResponse{Path: "src/auth.ts", Explanation: "It returns true.", KeyConcepts: []string{"return"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("explain:response (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(env.Payload), `"analogy":null`) || !strings.Contains(string(env.Payload), `"relatedFiles":null`) {
		t.Errorf("nullable fields not null: %s", env.Payload)
	}
	r := fake.Requests()[0]
	if r.Model != config.DefaultModelSonnet || r.MaxTokens != 4096 || r.Schema() == nil || !strings.Contains(r.System, "User's Dreyfus stage: novice") {
		t.Errorf("request: model %s max %d system %.200q", r.Model, r.MaxTokens, r.System)
	}
	checkStructured(t, r, "explanation", "key_concepts", "analogy", "related_files", "phase_connection")
	u := userJSON(t, r)
	if u["selected_code"] != "return true;" || u["file_path"] != "src/auth.ts" || u["language"] != "typescript" || u["current_phase"] != nil {
		t.Errorf("user message = %v", u)
	}
	if calls := apiCalls(t, db, explainthis.CallType); len(calls) != 1 || calls[0].SessionID != "" {
		t.Errorf("api_call_log = %+v", calls)
	}
}

// Scenario 11.2 and D72: the active phase and the language's Dreyfus stage
// reach Sonnet; explain_requested and explain_completed are logged.
func TestServeExplainWithSession(t *testing.T) {
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	db := openDB(t, s)
	ctx := context.Background()
	if _, err := db.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "TypeScript generics", Stage: coach.Competent, Confidence: 0.8}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "SQL", Stage: coach.Novice, Confidence: 0.8}); err != nil {
		t.Fatal(err)
	}
	editor := s.ws(t)
	sid := startSession(t, editor, "Fix OAuth race")
	plan, _ := db.CreatePlan(ctx, sid, "plan")
	for i, st := range []coach.PhaseStatus{coach.PhaseComplete, coach.PhaseActive} {
		if _, err := db.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: i + 1, Title: []string{"Read", "Fix the race"}[i],
			Description: "serialise refresh", Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	fake.Enqueue(llmtest.JSON(explainthis.Response{Explanation: "x", KeyConcepts: []string{}, Analogy: strp("like a queue"),
		RelatedFiles: []string{"src/token.ts"}, PhaseConnection: strp("This is what phase 2 changes")}))
	editor.send(wsapi.TypeUserExplain, explainPayload("return true;"))
	var got wsapi.ExplainResponse
	editor.expect(wsapi.TypeExplainResponse, &got)
	if got.PhaseConnection == nil || *got.PhaseConnection != "This is what phase 2 changes" || *got.Analogy != "like a queue" ||
		!cmp.Equal(got.RelatedFiles, []string{"src/token.ts"}) || got.KeyConcepts == nil {
		t.Errorf("explain:response = %+v", got)
	}
	r := fake.Requests()[0]
	if !strings.Contains(r.System, "User's Dreyfus stage: competent") {
		t.Errorf("system prompt lacks the TypeScript stage: %.200q", r.System)
	}
	phase := userJSON(t, r)["current_phase"].(map[string]any)
	if phase["number"] != 2.0 || phase["title"] != "Fix the race" || phase["description"] != "serialise refresh" {
		t.Errorf("current_phase = %v", phase)
	}
	req := actionsOf(t, db, sid, coach.ActionExplainRequested, 1)
	done := actionsOf(t, db, sid, coach.ActionExplainCompleted, 1)
	if len(req) != 1 || dataOf(t, req[0])["path"] != "src/auth.ts" || len(done) != 1 {
		t.Fatalf("actions: requested %v completed %v", req, done)
	}
	d := dataOf(t, done[0])
	if d["path"] != "src/auth.ts" || d["model"] != config.DefaultModelSonnet || d["success"] != true || d["latency_ms"] == nil {
		t.Errorf("explain_completed = %v", d)
	}
}

// Scenarios 11.4, 11.5 and EC-75.
func TestServeExplainFailures(t *testing.T) {
	fake := newClaude(t)
	_, db, editor, sid := startCoaching(t, fake, "failures")

	// 11.4: transient failure, retried once after 1 s, then delivered.
	fake.Enqueue(llmtest.Error(529, "overloaded_error", "busy"), llmtest.JSON(explainthis.Response{Explanation: "ok", KeyConcepts: []string{}}))
	editor.send(wsapi.TypeUserExplain, explainPayload("x"))
	var got wsapi.ExplainResponse
	editor.expect(wsapi.TypeExplainResponse, &got)
	calls := apiCalls(t, db, explainthis.CallType)
	if got.Explanation != "ok" || len(calls) != 2 || calls[0].LatencyMs != -1 || calls[1].LatencyMs < 1 {
		t.Errorf("retry: response %+v, api calls %+v", got, calls)
	}

	// 11.5: a non-transient failure → explain:error with a readable message.
	fake.Enqueue(llmtest.Error(401, "authentication_error", "invalid x-api-key"))
	editor.send(wsapi.TypeUserExplain, explainPayload("x"))
	var e wsapi.ExplainError
	editor.expect(wsapi.TypeExplainError, &e)
	if e.Path != "src/auth.ts" || e.Error != "Claude rejected the API key. Check ANTHROPIC_API_KEY." {
		t.Errorf("explain:error = %+v", e)
	}
	failed := actionsOf(t, db, sid, coach.ActionExplainCompleted, 2)
	if len(failed) != 2 || dataOf(t, failed[1])["success"] != false || dataOf(t, failed[1])["error"] != e.Error {
		t.Errorf("explain_completed after failure = %v", failed)
	}

	// EC-75: binary content is refused without a model call.
	n := len(fake.Requests())
	editor.send(wsapi.TypeUserExplain, explainPayload("\x00\x01\x02"))
	editor.expect(wsapi.TypeExplainError, &e)
	if e.Error != "Cannot explain binary files" || len(fake.Requests()) != n {
		t.Errorf("binary: %+v, requests %d → %d", e, n, len(fake.Requests()))
	}
}

// kataFixture stores a gap and a kata with constraints at levels 1, 3, 5, 7
// and two earlier attempts: level 2 with {Recursion only}, level 1 with none.
func kataFixture(tb testing.TB, db *store.Store, sessionID string) coach.KataSpec {
	tb.Helper()
	ctx := context.Background()
	gap, err := db.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sessionID, Topic: "Recursion", Severity: coach.SeverityHigh})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := db.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: gap.ID, Title: "Flatten", Description: "Flatten a nested list",
		InstructorNotes: "Watch for empty lists", Constraints: []coach.KataConstraint{
			{Title: "Recursion only", Description: "no loops", MinLevel: 1}, {Title: "No mutation", Description: "pure", MinLevel: 3},
			{Title: "One line", Description: "a single expression", MinLevel: 5}, {Title: "Generic", Description: "any depth", MinLevel: 7}}})
	if err != nil {
		tb.Fatal(err)
	}
	two, one, no, review := 2, 1, false, "close"
	for _, a := range []coach.KataAttempt{
		{Code: "v1", Review: &review, Level: &two, Passed: &no, Constraints: k.Constraints[:1]},
		{Code: "v0", Level: &one, Passed: &no},
	} {
		if _, err := db.AppendKataAttempt(ctx, k.ID, a); err != nil {
			tb.Fatal(err)
		}
	}
	return k
}

// Scenarios 11.6–11.8 and EC-77, then practice:submit_solution (NOTES.md).
func TestServeReview(t *testing.T) {
	fake := newClaude(t)
	_, db, editor, sid := startCoaching(t, fake, "practice")
	ctx := context.Background()
	k := kataFixture(t, db, sid)
	if _, err := db.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "recursion", Stage: coach.Proficient, Confidence: 0.9}); err != nil {
		t.Fatal(err)
	}
	fake.Enqueue(llmtest.JSON(practicereview.Response{Correct: true, Feedback: "Much better than v1", Level: 5, Passed: true,
		FollowUp: &practicereview.FollowUp{Type: "constraint_escalation", Constraint: "One line", Reason: "ready"}, DreyfusSignal: "advancing"}))
	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": k.ID, "userCode": "v2", "activeConstraintTitles": []string{"recursion ONLY", "Nope"}})
	var got wsapi.ReviewResponse
	editor.expect(wsapi.TypeReviewResponse, &got)
	want := wsapi.ReviewResponse{KataID: k.ID, Correct: true, Feedback: "Much better than v1", Level: 5, Passed: true,
		FollowUp: &wsapi.FollowUp{Type: "constraint_escalation", Constraint: "One line", Reason: "ready"}, DreyfusSignal: "advancing",
		UnlockedConstraints: []wsapi.Constraint{{Title: "No mutation", Description: "pure", MinLevel: 3}, {Title: "One line", Description: "a single expression", MinLevel: 5}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("review:response (-want +got):\n%s", diff)
	}
	r := fake.Requests()[0]
	if r.Model != config.DefaultModelSonnet || r.Schema() == nil || !strings.Contains(r.System, "User's Dreyfus stage for this topic: proficient") {
		t.Errorf("request: model %s, system %.300q", r.Model, r.System)
	}
	checkStructured(t, r, "correct", "feedback", "level", "passed", "follow_up", "dreyfus_signal")
	u := userJSON(t, r)
	wantUser := map[string]any{"kata_description": "Flatten a nested list", "instructor_notes": "Watch for empty lists",
		"active_constraints": []any{map[string]any{"title": "Recursion only", "description": "no loops"}}, "user_code": "v2",
		"previous_attempts": []any{map[string]any{"code": "v1", "review": "close", "level": 2.0, "passed": false}}}
	if diff := cmp.Diff(wantUser, u); diff != "" {
		t.Errorf("user message (-want +got):\n%s", diff)
	}
	stored, _ := db.Kata(ctx, k.ID)
	if len(stored.UserAttempts) != 3 || stored.UserAttempts[2].Code != "v2" || *stored.UserAttempts[2].Level != 5 ||
		len(stored.UserAttempts[2].Constraints) != 1 || stored.UserAttempts[0].Code != "v1" {
		t.Errorf("attempts = %+v", stored.UserAttempts)
	}
	if gaps, err := db.KnowledgeGaps(ctx, storeGapFilter(sid)); err != nil || len(gaps) != 1 || !gaps[0].Addressed {
		t.Errorf("the passed kata's gap is not addressed: %+v, %v", gaps, err)
	}
	done := actionsOf(t, db, sid, coach.ActionReviewCompleted, 1)
	if len(done) != 1 || len(actionsOf(t, db, sid, coach.ActionReviewRequested, 1)) != 1 {
		t.Fatalf("review actions = %v", done)
	}
	if d := dataOf(t, done[0]); d["kataId"] != k.ID || d["level"] != 5.0 || d["passed"] != true || d["success"] != true || d["model"] != config.DefaultModelSonnet {
		t.Errorf("review_completed = %v", d)
	}

	// practice:submit_solution is the same flow, answered with practice:solution_review.
	fake.Enqueue(llmtest.JSON(practicereview.Response{Correct: true, Feedback: "Excellent", Level: 7, Passed: true, DreyfusSignal: "stable"}))
	editor.send(wsapi.TypePracticeSubmitSolution, map[string]any{"kataId": k.ID, "code": "v3", "activeConstraints": []string{"Recursion only"}})
	var sol wsapi.ReviewResponse
	editor.expect(wsapi.TypePracticeSolutionReview, &sol)
	if sol.Level != 7 || sol.FollowUp != nil || !cmp.Equal(sol.UnlockedConstraints, []wsapi.Constraint{{Title: "Generic", Description: "any depth", MinLevel: 7}}) {
		t.Errorf("practice:solution_review = %+v", sol)
	}
	if prev := userJSON(t, fake.Requests()[1])["previous_attempts"].([]any); len(prev) != 2 { // v1 and v2 share the constraint set
		t.Errorf("previous attempts = %v", prev)
	}
	if stored, _ = db.Kata(ctx, k.ID); len(stored.UserAttempts) != 4 {
		t.Errorf("attempts after submit = %d", len(stored.UserAttempts))
	}
}

// Scenarios 11.9, 11.10, EC-80, and a payload without kataId.
func TestServeReviewFailures(t *testing.T) {
	fake := newClaude(t)
	_, db, editor, sid := startCoaching(t, fake, "review failures")
	k := kataFixture(t, db, sid)

	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": "no-such-kata", "userCode": "x", "activeConstraintTitles": []string{}})
	var e wsapi.ReviewError
	editor.expect(wsapi.TypeReviewError, &e)
	if e != (wsapi.ReviewError{KataID: "no-such-kata", Error: "Kata not found"}) || len(fake.Requests()) != 0 {
		t.Errorf("not found: %+v, requests %d", e, len(fake.Requests()))
	}

	fake.Enqueue(llmtest.Message("refusal", llmtest.TextBlock("no")))
	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": k.ID, "userCode": "", "activeConstraintTitles": []string{}})
	editor.expect(wsapi.TypeReviewError, &e)
	if e.KataID != k.ID || !strings.Contains(e.Error, "declined") {
		t.Errorf("failure: %+v", e)
	}
	if stored, _ := db.Kata(context.Background(), k.ID); len(stored.UserAttempts) != 2 {
		t.Errorf("a failed attempt was appended: %d attempts", len(stored.UserAttempts))
	}
	done := actionsOf(t, db, sid, coach.ActionReviewCompleted, 1)
	if len(done) != 1 || dataOf(t, done[0])["success"] != false {
		t.Errorf("review_completed = %v", done)
	}

	editor.send(wsapi.TypeUserReview, map[string]any{})
	var ce wsapi.ConnectionError
	editor.expect(wsapi.TypeConnectionError, &ce)
	if ce.Code != wsapi.CodeInvalidPayload {
		t.Errorf("empty review: %+v", ce)
	}

	// EC-80: without a session the review still works (novice, nothing logged).
	// The server wraps the ended session up first (its model calls find no
	// scripted answer and fail fast); the review is asked after it.
	editor.send(wsapi.TypeSessionEnd, map[string]any{})
	editor.expect(wsapi.TypeSessionEnded, nil)
	editor.expect(wsapi.TypeSessionCompleted, nil)
	fake.Enqueue(llmtest.JSON(practicereview.Response{Feedback: "No code submitted", Level: 1, DreyfusSignal: "struggling"}))
	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": k.ID, "userCode": ""})
	var got wsapi.ReviewResponse
	editor.expect(wsapi.TypeReviewResponse, &got)
	last := fake.Requests()[len(fake.Requests())-1]
	if got.Feedback != "No code submitted" || !strings.Contains(last.System, "for this topic: novice") || len(got.UnlockedConstraints) != 0 {
		t.Errorf("no session: %+v / %.200q", got, last.System)
	}
}
