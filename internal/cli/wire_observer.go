package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/dashboard"
	"github.com/paige-dev/paige/internal/coach/observer"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// openObserverDashboard starts the Observer (story 10) and the dashboard
// (story 12) and plugs their WebSocket handlers (observer:mute,
// dashboard:request, dashboard:refresh_issues, dashboard:refresh_materials) into ext. The Observer
// follows the session lifecycle, starting at once for a session left active
// by a previous run. Both stop — the Observer's goroutines exit, running
// dashboard flows are cancelled — after the WebSocket connections close
// and before the action queue and the database.
func openObserverDashboard(a *app, st *store.Store, bus *actionlog.Bus, sess *session.Service, hub *wsapi.Hub,
	models *coachModels, ext *wsapi.Extensions, log *slog.Logger) {
	obs := observer.New(observer.Options{Store: st, Actions: activeActions{sess}, Bus: bus, LLM: models.llm,
		Notifier: wsapi.ObserverNotifier{Hub: hub}, Log: log.With("component", "observer")})
	sess.Subscribe(obs.OnSessionEvent)
	if id := sess.ActiveID(); id != "" {
		obs.Start(id)
	}
	dash := dashboard.New(dashboard.Options{Store: st, LLM: models.llm, Session: sess, Memory: models.mem,
		GH: a.gh(0), ProjectDir: a.cfg.ProjectDir, Log: log.With("component", "dashboard")})
	a.onClose("observer and dashboard", func(context.Context) error {
		obs.Close()
		return dash.Close()
	})
	ext.ObserverMute = wsapi.ObserverMuteHandler(obs)
	ext.DashboardRequest = wsapi.DashboardRequestHandler(dash)
	ext.RefreshIssues = wsapi.RefreshIssuesHandler(dash)
	ext.RefreshMaterials = wsapi.RefreshMaterialsHandler(dash)
}

// activeActions writes the Observer's actions through the session's
// action queue, for the session it observes while that session is the
// active one (a result for a session that has since ended is dropped,
// EC-66).
type activeActions struct{ sess *session.Service }

func (a activeActions) LogSession(ctx context.Context, sessionID string, t coach.ActionType, data any) error {
	if a.sess.ActiveID() != sessionID {
		return nil
	}
	return a.sess.Log(ctx, t, data)
}

// gh is the GitHub CLI in the project directory, found on the PATH of
// paige's configuration (the environment it was given), as doctor finds
// it; timeout 0 means the default.
func (a *app) gh(timeout time.Duration) *dashboard.GH {
	return &dashboard.GH{Dir: a.cfg.ProjectDir, Timeout: timeout, LookPath: dashboard.LookPathIn(a.cfg.Process.Path)}
}
