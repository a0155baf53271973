package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/paige-dev/paige/internal/coach/terminal"
	"github.com/paige-dev/paige/internal/coach/workbench"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// openTerminal creates the terminal's per-process key (PAIGE_TOKEN fixes
// it) and its manager, before the coach is wired: connection:init reports
// the terminal's status. A binary without the workbench UI (no_ui) has no
// page to trade the key for a cookie, so it gets no terminal either.
func openTerminal(a *app) error {
	if workbench.FS() == nil {
		return nil
	}
	key, err := terminal.NewKey(a.cfg.Process.Token)
	if err != nil {
		return err
	}
	bin := a.cfg.Process.Bin
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return fmt.Errorf("find the paige executable for the terminal's hooks: %w", err)
		}
	}
	a.key = key
	a.term = terminal.New(terminal.Options{
		Key: key,
		Dir: a.cfg.ProjectDir,
		Env: os.Environ(),
		Vars: map[string]string{"PROJECT_DIR": a.cfg.ProjectDir, "DATA_DIR": a.cfg.DataDir,
			"PAIGE_BIN": bin},
		Policy: a.policy,
		Claude: &terminal.ClaudeKit{Bin: bin, Version: Version},
		Log:    a.log.With("component", "terminal"),
	})
	a.onClose("terminals", a.term.Close)
	return nil
}

// terminalStatus is wsapi's view of the terminal for a /ws upgrade request.
func (a *app) terminalStatus() func(*http.Request) wsapi.TerminalStatus {
	if a.term == nil {
		return nil
	}
	return func(r *http.Request) wsapi.TerminalStatus {
		st := a.term.Status(r)
		return wsapi.TerminalStatus{Available: true, Authorized: st.Authorized, ClaudeOnPath: st.ClaudeOnPath,
			ClaudeInstall: st.ClaudeInstall, Shell: st.Shell}
	}
}

// wireWorkbench mounts the workbench at / (client routes fall back to
// index.html; ?token= is traded for the terminal's cookie) and its terminal
// at /pty. A binary built with -tags no_ui mounts neither.
func wireWorkbench(_ context.Context, a *app, mux *routeMux) error {
	fsys := workbench.FS()
	if fsys == nil || a.term == nil {
		a.log.Info("workbench not built into this binary (no_ui)")
		return nil
	}
	mux.Handle("GET /pty", a.term)
	// Without a method: "GET /" would conflict with the method-less
	// "/api/v1/" and "/mcp"; the handler answers other methods with 405.
	mux.Handle(workbench.Prefix, a.key.Exchange(workbench.Handler(fsys)))
	return nil
}
