// Package dashboard assembles Paige's launch screen (spec story 12): the
// immediate dashboard:state read from SQLite, then — in parallel — the
// GitHub issues ranked for the user (gh CLI, memories, Sonnet) and learning
// materials for the top knowledge gaps (Sonnet with web search).
//
// # Flow
//
// The package knows no transport: [Service.Load] and [Service.RefreshIssues]
// report to a [Sink], which the WebSocket adapter (wsapi) turns into
// messages. dashboard:request {statsPeriod?} ([Service.Load]) broadcasts
// dashboard:state at once ([State]: real queries, zeros on an empty
// database), then starts two goroutines: [Service.Issues] →
// dashboard:issues or dashboard:issues_error, and [Service.Materials] →
// dashboard:materials or dashboard:materials_error (nothing when there is
// no unaddressed gap).
// When both have ended, dashboard_loaded {statsPeriod, issuesLoaded,
// materialsLoaded} is logged against the active session, or with no
// session when none is active (the dashboard is what a user sees before
// starting one; issue 13). dashboard:refresh_issues reruns only
// the issue flow and never resends dashboard:state (D82);
// dashboard:refresh_materials (Paige's) likewise reruns only the materials
// flow, past its cache. Concurrent
// requests run independently (EC-90, EC-91). Load and the refreshes return at
// once, so the editor's connection keeps being served while Claude works.
//
// # Deviations from the spec
//
//   - With zero open issues the assessment is not called: dashboard:issues
//     {issues: []} is what the model would have to answer (EC-84), without
//     paying for it.
//   - Assessed issues whose number gh did not list are dropped, and titles
//     are gh's: the model ranks issues, it does not invent them.
//   - Knowledge gaps recorded under the same topic by several sessions are
//     researched once.
package dashboard

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/background"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// Session is the live session state the dashboard needs;
// *session.Service satisfies it.
type Session interface {
	ActiveID() string
	Log(ctx context.Context, t coach.ActionType, data any) error
}

// DefaultFlowTimeout bounds one issue or materials flow (web search turns
// can take a while).
const DefaultFlowTimeout = 3 * time.Minute

// Options configure [New]. Store, LLM and Session are required.
type Options struct {
	Store   *store.Store
	LLM     *llm.Client
	Session Session
	// Memory is queried for related memories; nil means none.
	Memory memory.Store
	// GH runs the GitHub CLI; nil means gh from PATH in ProjectDir.
	GH *GH
	// ProjectDir is where gh runs and what the tech stack is read from.
	ProjectDir string
	// Log: nil discards.
	Log *slog.Logger
	// Now: nil means time.Now.
	Now func() time.Time
	// FlowTimeout: if zero, DefaultFlowTimeout.
	FlowTimeout time.Duration
}

// Service serves the dashboard messages. It is safe for concurrent use;
// Close it at shutdown.
type Service struct {
	store      *store.Store
	llm        *llm.Client
	sess       Session
	memory     memory.Store
	gh         *GH
	projectDir string
	log        *slog.Logger
	now        func() time.Time
	timeout    time.Duration
	materials  materialsCache

	flows *background.Group // the running flows; closed by Close
}

// New returns a Service; it panics if a required option is missing (a
// wiring bug).
func New(o Options) *Service {
	if o.Store == nil || o.LLM == nil || o.Session == nil {
		panic("dashboard: Store, LLM and Session are required")
	}
	if o.GH == nil {
		o.GH = &GH{Dir: o.ProjectDir}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.FlowTimeout <= 0 {
		o.FlowTimeout = DefaultFlowTimeout
	}
	return &Service{store: o.Store, llm: o.LLM, sess: o.Session, memory: o.Memory, gh: o.GH, projectDir: o.ProjectDir,
		log: o.Log, now: o.Now, timeout: o.FlowTimeout, flows: background.New()}
}

// Close cancels the flows in flight and waits for them. A request made
// during or after Close is answered at once with the flows' error ("the
// server is shutting down"). It is idempotent.
func (s *Service) Close() error {
	return s.flows.Close(context.Background())
}

func (s *Service) sessionID() string { return s.sess.ActiveID() }

// Sink receives what a dashboard request produces: the state at once, then
// each flow's outcome from the flow's own goroutine. The WebSocket adapter
// (wsapi) broadcasts each as its dashboard:* message. Implementations must
// be safe for concurrent use.
type Sink interface {
	State(DashboardState)
	Issues(DashboardIssues)
	IssuesError(msg string)
	Materials(DashboardMaterials)
	MaterialsError(msg string)
}

// Load answers a dashboard request (dashboard:request): it reads the state
// for period (empty means all) and hands it to sink, then starts the issue
// and materials flows, which report to sink when they end. It returns once
// the flows have started; the error is the state's (then no flow starts).
func (s *Service) Load(ctx context.Context, period Period, sink Sink) error {
	if period == "" {
		period = PeriodAll
	}
	st, err := State(ctx, s.store.DB(), period, s.now())
	if err != nil {
		return err
	}
	sink.State(st)
	s.goFlows(sink, period)
	return nil
}

// RefreshIssues reruns only the issue flow (dashboard:refresh_issues); it
// returns at once and the flow reports to sink.
func (s *Service) RefreshIssues(sink Sink) {
	s.flows.Go(context.Background(), func(ctx context.Context) { s.runIssues(ctx, sink) })
}

// RefreshMaterials reruns only the materials flow
// (dashboard:refresh_materials, Paige's): it researches again even when
// the gaps are unchanged, caches the new answer and never resends the
// state; it returns at once and the flow reports to sink.
func (s *Service) RefreshMaterials(sink Sink) {
	s.flows.Go(context.Background(), func(ctx context.Context) { s.runMaterials(ctx, sink, true) })
}

// goFlows runs the issue and materials flows in parallel (FR-177) and logs
// dashboard_loaded when both have ended (FR-186).
func (s *Service) goFlows(sink Sink, period Period) {
	s.flows.Go(context.Background(), func(ctx context.Context) {
		var wg sync.WaitGroup // local to this request: Add and Wait are ordered
		var issuesOK, materialsOK bool
		wg.Add(2)
		go func() { defer wg.Done(); issuesOK = s.runIssues(ctx, sink) }()
		go func() { defer wg.Done(); materialsOK = s.runMaterials(ctx, sink, false) }()
		wg.Wait()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		err := s.sess.Log(ctx, coach.ActionDashboardLoaded, map[string]any{
			"statsPeriod": string(period), "issuesLoaded": issuesOK, "materialsLoaded": materialsOK})
		if err != nil {
			s.log.Error("dashboard_loaded not logged", "err", err)
		}
	})
}

// runIssues runs the issue flow and reports its outcome; it reports
// whether the issues were delivered.
func (s *Service) runIssues(ctx context.Context, sink Sink) bool {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	out, err := s.Issues(ctx)
	if err != nil {
		msg := DescribeError("Issue assessment", err)
		s.log.Warn("dashboard: issue assessment failed", "err", err)
		sink.IssuesError(msg)
		return false
	}
	sink.Issues(out)
	return true
}

// runMaterials runs the materials flow (refresh: past the cache) and
// reports its outcome; it reports whether materials were delivered.
func (s *Service) runMaterials(ctx context.Context, sink Sink, refresh bool) bool {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	out, ran, err := s.materialsFor(ctx, refresh)
	switch {
	case err != nil:
		s.log.Warn("dashboard: learning materials failed", "err", err)
		sink.MaterialsError(DescribeError("Learning materials", err))
		return false
	case !ran:
		return false
	}
	sink.Materials(out)
	return true
}
