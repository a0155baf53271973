package wsapi

import (
	"context"

	"github.com/paige-dev/paige/internal/coach/dashboard"
)

// Dashboard is the launch screen (story 12); *dashboard.Service satisfies it.
type Dashboard interface {
	Load(ctx context.Context, period dashboard.Period, sink dashboard.Sink) error
	RefreshIssues(sink dashboard.Sink)
	RefreshMaterials(sink dashboard.Sink)
}

var _ Dashboard = (*dashboard.Service)(nil)

// DashboardRequestHandler handles dashboard:request {statsPeriod?}:
// dashboard:state at once, then dashboard:issues (or _error) and
// dashboard:materials (or _error) as the flows end, all broadcast with the
// request's id (plug it in as Extensions.DashboardRequest).
func DashboardRequestHandler(d Dashboard) Handler {
	return Handle(func(ctx context.Context, req *Request, in DashboardRequest) error {
		return d.Load(ctx, in.StatsPeriod, dashboardSink{req})
	})
}

// RefreshIssuesHandler handles dashboard:refresh_issues: dashboard:issues
// or dashboard:issues_error, never dashboard:state (plug it in as
// Extensions.RefreshIssues).
func RefreshIssuesHandler(d Dashboard) Handler {
	return Handle(func(_ context.Context, req *Request, _ Empty) error {
		d.RefreshIssues(dashboardSink{req})
		return nil
	})
}

// RefreshMaterialsHandler handles dashboard:refresh_materials (Paige's):
// dashboard:materials or dashboard:materials_error, researched again past
// the per-gaps cache, never dashboard:state (plug it in as
// Extensions.RefreshMaterials).
func RefreshMaterialsHandler(d Dashboard) Handler {
	return Handle(func(_ context.Context, req *Request, _ Empty) error {
		d.RefreshMaterials(dashboardSink{req})
		return nil
	})
}

// dashboardSink broadcasts a request's dashboard results; Request.Broadcast
// is safe for concurrent use.
type dashboardSink struct{ req *Request }

func (s dashboardSink) State(st DashboardState)        { s.req.Broadcast(TypeDashboardState, st) }
func (s dashboardSink) Issues(out DashboardIssues)     { s.req.Broadcast(TypeDashboardIssues, out) }
func (s dashboardSink) Materials(m DashboardMaterials) { s.req.Broadcast(TypeDashboardMaterials, m) }
func (s dashboardSink) IssuesError(msg string) {
	s.req.Broadcast(TypeDashboardIssuesError, ErrorText{Error: msg})
}
func (s dashboardSink) MaterialsError(msg string) {
	s.req.Broadcast(TypeDashboardMaterialsError, ErrorText{Error: msg})
}
