package coaching

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
)

type rig struct {
	svc  *Service
	st   *store.Store
	sess *session.Service
	mem  *memory.Embedded
	fake *llmtest.Server
}

// newRig wires the Service to a real store, session, action log, embedded
// memory store and the fake Messages API.
func newRig(tb testing.TB) *rig {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	st, err := store.Open(ctx, dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	al := actionlog.New(st, nil)
	tb.Cleanup(func() { al.Close(ctx) })
	sess, err := session.New(ctx, st, al, &session.Options{ProjectDir: filepath.Join(dir, "app-alpha")})
	if err != nil {
		tb.Fatal(err)
	}
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(dir, "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { mem.Close() })
	fake := llmtest.NewServer(tb)
	client := llm.New(llm.Options{APIKey: "k", BaseURL: fake.URL(), Log: al, Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
	svc := New(Options{Store: st, Session: sess, Actions: al, LLM: client, Memory: mem})
	return &rig{svc: svc, st: st, sess: sess, mem: mem, fake: fake}
}

// start starts a session on an issue titled title (none when empty).
func (r *rig) start(t testing.TB, title string) coach.Session {
	t.Helper()
	s, err := r.sess.Start(context.Background(), session.StartInput{IssueTitle: title})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wrapUpReplies() []llmtest.Response {
	return []llmtest.Response{
		llmtest.JSON(knowledgegaps.Response{KnowledgeGaps: []knowledgegaps.Gap{}, KataSpecs: []knowledgegaps.KataSpec{}}),
		llmtest.JSON(dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{}}),
		llmtest.JSON(memorysummary.Response{Memories: []memorysummary.Memory{{Content: "Paired on the OAuth race", Tags: []string{"oauth"}, Importance: "high"}}}),
	}
}

// A session started while the wrap-up runs does not lose the wrap-up: the
// wrapped-up session is still completed, the new one stays active, and the
// memories carry the project identity (9.11: session id and project).
func TestEndSessionWhileAnotherStarts(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	a := r.start(t, "A")
	replies := wrapUpReplies()
	replies[0] = replies[0].WithDelay(200 * time.Millisecond)
	r.fake.Enqueue(replies...)
	done := make(chan WrapUp, 1)
	go func() {
		w, err := r.svc.EndSession(ctx, "transcript")
		if err != nil {
			t.Error(err)
		}
		done <- w
	}()
	r.fake.WaitRequests(t, 1, 5*time.Second)
	b := r.start(t, "B")
	w := <-done
	if w.SessionID != a.ID || w.MemoriesStored != 1 || len(w.Failed) != 0 {
		t.Errorf("wrap-up = %+v", w)
	}
	if row, _ := r.st.Session(ctx, a.ID); row.Status != coach.SessionCompleted {
		t.Errorf("session A = %s, want completed", row.Status)
	}
	if r.sess.ActiveID() != b.ID {
		t.Errorf("active = %s, want B %s", r.sess.ActiveID(), b.ID)
	}
	got, _ := r.mem.QueryMemories(ctx, memory.Query{Text: "OAuth race"})
	if len(got) != 1 || got[0].Metadata.SessionID != a.ID || got[0].Metadata.Project != ProjectKey(a.ProjectDir) || !filepath.IsAbs(got[0].Metadata.Project) || got[0].Metadata.Importance != "high" {
		t.Errorf("memories = %+v", got)
	}
	if n, _ := r.st.CountActions(ctx, a.ID, coach.ActionSessionEnd, time.Time{}); n != 1 {
		t.Errorf("session_end logged %d times", n)
	}
}

// Concurrent wrap-ups of one session run once (EC-62): the second waits,
// then finds the session wrapped up.
func TestEndSessionConcurrentCallsRunOnce(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.start(t, "")
	r.fake.Enqueue(wrapUpReplies()...)
	results := make(chan WrapUp, 2)
	for range 2 {
		go func() {
			w, err := r.svc.EndSession(ctx, "t")
			if err != nil {
				t.Error(err)
			}
			results <- w
		}()
	}
	w1, w2 := <-results, <-results
	if w1.AlreadyCompleted == w2.AlreadyCompleted {
		t.Errorf("results %+v and %+v: want exactly one no-op", w1, w2)
	}
	if n := len(r.fake.Requests()); n != 3 {
		t.Errorf("model calls = %d, want 3", n)
	}
}

// With a transient failure the wrap-up step is retried (llm.Call's policy).
func TestWrapUpRetriesTransientFailures(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.start(t, "")
	r.fake.Enqueue(append([]llmtest.Response{llmtest.Error(529, "overloaded_error", "busy")}, wrapUpReplies()...)...)
	w, err := r.svc.EndSession(ctx, "t")
	if err != nil || len(w.Failed) != 0 || len(r.fake.Requests()) != 4 {
		t.Errorf("wrap-up = %+v, %v; requests %d", w, err, len(r.fake.Requests()))
	}
}

// The pipeline's two calls both retry under the one policy: the memory
// filter (a one-shot Haiku call) after an overload, the coach agent after
// a rate limit; the kept memory still reaches the coach.
func TestPipelineCallsRetry(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	if _, err := r.mem.AddMemories(ctx, "old", "app-alpha", []memory.Memory{{Content: "Paired on the OAuth token race", Importance: "high"}}); err != nil {
		t.Fatal(err)
	}
	r.start(t, "OAuth refresh")
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
