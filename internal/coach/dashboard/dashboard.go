// Package dashboard assembles Paige's launch screen (spec story 12): the
// immediate dashboard:state read from SQLite, then — in parallel — the
// GitHub issues ranked for the user (gh CLI, memories, Sonnet) and learning
// materials for the top knowledge gaps (Sonnet with web search).
//
// # Flow
//
// dashboard:request {statsPeriod?} broadcasts dashboard:state at once
// ([State]: real queries, zeros on an empty database), then starts two
// goroutines: [Service.Issues] → dashboard:issues or dashboard:issues_error,
// and [Service.Materials] → dashboard:materials or
// dashboard:materials_error (nothing when there is no unaddressed gap).
// When both have ended, dashboard_loaded {statsPeriod, issuesLoaded,
// materialsLoaded} is logged against the active session, or with no
// session when none is active (the dashboard is what a user sees before
// starting one; issue 13). dashboard:refresh_issues reruns only
// the issue flow and never resends dashboard:state (D82);
// dashboard:refresh_materials (Paige's) likewise reruns only the materials
// flow, past its cache. Concurrent
// requests run independently (EC-90, EC-91). The handlers return at once,
// so the editor's connection keeps being served while Claude works.
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
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
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

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
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
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{store: o.Store, llm: o.LLM, sess: o.Session, memory: o.Memory, gh: o.GH, projectDir: o.ProjectDir,
		log: o.Log, now: o.Now, timeout: o.FlowTimeout, ctx: ctx, cancel: cancel}
}

// Close cancels the flows in flight and waits for them. It is idempotent.
func (s *Service) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

func (s *Service) sessionID() string { return s.sess.ActiveID() }

// RequestHandler returns the dashboard:request handler (plug it in as
// wsapi.Extensions.DashboardRequest).
func (s *Service) RequestHandler() wsapi.Handler {
	return wsapi.Handle(func(ctx context.Context, req *wsapi.Request, in wsapi.DashboardRequest) error {
		period := in.StatsPeriod
		if period == "" {
			period = PeriodAll
		}
		st, err := State(ctx, s.store.DB(), period, s.now())
		if err != nil {
			return err
		}
		req.Broadcast(wsapi.TypeDashboardState, st)
		s.goFlows(req, period)
		return nil
	})
}

// RefreshMaterialsHandler returns the dashboard:refresh_materials handler
// (plug it in as wsapi.Extensions.RefreshMaterials): it reruns only the
// materials flow, researching again even when the gaps are unchanged, and
// never resends dashboard:state.
func (s *Service) RefreshMaterialsHandler() wsapi.Handler {
	return wsapi.Handle(func(_ context.Context, req *wsapi.Request, _ wsapi.Empty) error {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.runMaterials(req, true)
		}()
		return nil
	})
}

// RefreshHandler returns the dashboard:refresh_issues handler (plug it in
// as wsapi.Extensions.RefreshIssues).
func (s *Service) RefreshHandler() wsapi.Handler {
	return wsapi.Handle(func(_ context.Context, req *wsapi.Request, _ wsapi.Empty) error {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.runIssues(req)
		}()
		return nil
	})
}

// goFlows runs the issue and materials flows in parallel (FR-177) and logs
// dashboard_loaded when both have ended (FR-186).
func (s *Service) goFlows(req *wsapi.Request, period wsapi.Period) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		var wg sync.WaitGroup
		var issuesOK, materialsOK bool
		wg.Add(2)
		go func() { defer wg.Done(); issuesOK = s.runIssues(req) }()
		go func() { defer wg.Done(); materialsOK = s.runMaterials(req, false) }()
		wg.Wait()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 10*time.Second)
		defer cancel()
		err := s.sess.Log(ctx, coach.ActionDashboardLoaded, map[string]any{
			"statsPeriod": string(period), "issuesLoaded": issuesOK, "materialsLoaded": materialsOK})
		if err != nil {
			s.log.Error("dashboard_loaded not logged", "err", err)
		}
	}()
}

// runIssues runs the issue flow and broadcasts its outcome; it reports
// whether dashboard:issues was sent.
func (s *Service) runIssues(req *wsapi.Request) bool {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	out, err := s.Issues(ctx)
	if err != nil {
		msg := DescribeError("Issue assessment", err)
		s.log.Warn("dashboard: issue assessment failed", "err", err)
		req.Broadcast(wsapi.TypeDashboardIssuesError, wsapi.ErrorText{Error: msg})
		return false
	}
	req.Broadcast(wsapi.TypeDashboardIssues, out)
	return true
}

// runMaterials runs the materials flow (refresh: past the cache) and
// broadcasts its outcome; it reports whether dashboard:materials was sent.
func (s *Service) runMaterials(req *wsapi.Request, refresh bool) bool {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	out, ran, err := s.materialsFor(ctx, refresh)
	switch {
	case err != nil:
		s.log.Warn("dashboard: learning materials failed", "err", err)
		req.Broadcast(wsapi.TypeDashboardMaterialsError, wsapi.ErrorText{Error: DescribeError("Learning materials", err)})
		return false
	case !ran:
		return false
	}
	req.Broadcast(wsapi.TypeDashboardMaterials, out)
	return true
}
