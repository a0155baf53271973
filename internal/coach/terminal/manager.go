// Package terminal serves the workbench's terminal: GET /pty upgrades to a
// WebSocket attached to the user's shell on a pseudo-terminal in
// PROJECT_DIR.
//
// # The terminal is code execution
//
// It is the most dangerous thing Paige serves, so every upgrade passes
// two checks before anything starts: the server's one origin/host policy
// ([server.Policy]: a loopback Host with this port, so no DNS rebinding; a
// browser's Origin is this server or one the user listed), checked here
// again although the server already serves every route behind it, and the
// request carries the per-process token cookie
// ([Key]): only someone who saw the URL `paige serve` printed has it.
// Failing any is a 403; more than [Options.Max] terminals at once is a 503.
//
// # Lifetime
//
// The shell leads its own session and process group. Closing the WebSocket
// (the page closed) ends it: SIGHUP to the group, SIGKILL after
// [Options.Grace]. The shell exiting sends {"type":"exit","code":N} and
// closes the socket. [Manager.Close] (server shutdown) ends every terminal
// and waits for them; on Linux the shell also gets SIGKILL if paige dies
// without shutting down. The shell never outlives the server.
//
// # Protocol
//
// Server → client binary frames are terminal output; client → server
// binary frames are input. Text frames carry one JSON control message each
// ([Controls]): input and resize from the client, exit and error from the
// server. docs/workbench.md has the details.
package terminal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/server"
)

// Defaults of [Options].
const (
	DefaultMax   = 8
	DefaultGrace = 2 * time.Second
	DefaultCols  = 80
	DefaultRows  = 24
)

// ClaudeInstall is what to tell a user without Claude Code on PATH.
const ClaudeInstall = "npm install -g @anthropic-ai/claude-code"

// ErrClosed is the refusal after [Manager.Close].
var ErrClosed = errors.New("terminal: server shutting down")

// Options configure [New]. Key and Dir are required.
type Options struct {
	Key *Key
	// Dir is the shell's working directory (PROJECT_DIR).
	Dir string
	// Env is the shell's base environment (the server's, e.g. os.Environ());
	// PAIGE_TOKEN is removed from it.
	Env []string
	// Vars are set in the shell's environment over Env (DATA_DIR,
	// PROJECT_DIR, ...). PAIGE_URL, PORT, TERM and PATH are set by the
	// manager.
	Vars map[string]string
	// Shell: if empty, $SHELL from Env, else /bin/bash, else /bin/sh.
	Shell string
	// Max concurrent terminals. If zero, DefaultMax.
	Max int
	// Grace between SIGHUP and SIGKILL. If zero, DefaultGrace.
	Grace time.Duration
	// Policy is the server's origin/host policy, checked again here (the
	// server already serves every route behind it): a terminal is code
	// execution, so it never relies on the wiring alone. If nil, the zero
	// Policy (loopback hosts, same-origin browsers only).
	Policy *server.Policy
	// Claude, when set, puts a `claude` wrapper first on the shell's PATH
	// that starts Claude Code with Paige plugged in (see [ClaudeKit]).
	Claude *ClaudeKit
	Log    *slog.Logger // nil discards
}

// Manager owns the running terminals. It is safe for concurrent use.
type Manager struct {
	o       Options
	log     *slog.Logger
	closing chan struct{} // closed by Close
	wg      sync.WaitGroup

	mu        sync.Mutex
	open      int    // terminals running or starting; guarded by mu
	closed    bool   // guarded by mu
	serverURL string // guarded by mu
}

// New returns a Manager; it panics if Key or Dir is missing (a wiring bug).
func New(o Options) *Manager {
	if o.Key == nil || o.Dir == "" {
		panic("terminal: Key and Dir are required")
	}
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Shell == "" {
		o.Shell = defaultShell(o.Env)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Policy == nil {
		o.Policy = &server.Policy{}
	}
	return &Manager{o: o, log: o.Log, closing: make(chan struct{})}
}

// SetServerURL records the server's base URL ("http://127.0.0.1:3000") once
// it listens; shells get it as PAIGE_URL and Claude Code's MCP server points
// at it. Until then the URL is taken from the request's Host.
func (m *Manager) SetServerURL(base string) {
	m.mu.Lock()
	m.serverURL = strings.TrimSuffix(base, "/")
	m.mu.Unlock()
}

// Status is what the workbench shows about the terminal for one request.
type Status struct {
	Authorized    bool   // the request carries the token cookie
	ClaudeOnPath  bool   // `claude` is on the shell's PATH
	ClaudeInstall string // how to install it
	Shell         string
}

// Status reports the terminal's state as the client of r sees it.
func (m *Manager) Status(r *http.Request) Status {
	_, onPath := LookPath("claude", envValue(m.o.Env, "PATH"))
	return Status{Authorized: m.o.Key.Authorized(r), ClaudeOnPath: onPath,
		ClaudeInstall: ClaudeInstall, Shell: m.o.Shell}
}

// Len returns the number of running terminals.
func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.open
}

// ServeHTTP checks the request (403), reserves a slot (503 when full or
// closing), upgrades and runs the terminal until either side ends it.
func (m *Manager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ref := m.o.Policy.Check(server.RequestFacts(r)); ref != nil {
		m.log.Warn("terminal refused", "rule", string(ref.Rule), "reason", ref.Reason, "remote", r.RemoteAddr)
		http.Error(w, "terminal refused: "+ref.Error(), http.StatusForbidden)
		return
	}
	if !m.o.Key.Authorized(r) {
		m.log.Warn("terminal refused", "reason", "no token cookie", "remote", r.RemoteAddr)
		http.Error(w, "terminal refused: open the workbench URL printed by `paige serve` (it carries the terminal key)",
			http.StatusForbidden)
		return
	}
	if err := m.reserve(); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer m.release()
	m.serve(w, r)
}

func (m *Manager) reserve() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if m.open >= m.o.Max {
		return fmt.Errorf("terminal refused: %d terminals are open, the most this server allows; close one", m.open)
	}
	m.open++
	m.wg.Add(1)
	return nil
}

func (m *Manager) release() {
	m.mu.Lock()
	m.open--
	m.mu.Unlock()
	m.wg.Done()
}

// Close ends every terminal (SIGHUP, SIGKILL after the grace) and waits for
// them until ctx is done; later upgrades get 503. It also removes the
// Claude kit's files. Close is idempotent.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.closing)
	}
	m.mu.Unlock()
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("terminals still closing: %w", ctx.Err())
	}
	if m.o.Claude != nil {
		err = errors.Join(err, m.o.Claude.Close())
	}
	return err
}

// baseURL is the server URL for shells: SetServerURL's, else from r.Host.
func (m *Manager) baseURL(r *http.Request) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.serverURL != "" {
		return m.serverURL
	}
	return "http://" + r.Host
}

// environ is the shell's environment for a server at base.
func (m *Manager) environ(base string) []string {
	env := make([]string, 0, len(m.o.Env)+len(m.o.Vars)+6)
	set := map[string]string{"PAIGE_URL": base, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
	if _, port, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")); err == nil {
		set["PORT"] = port
	}
	for k, v := range m.o.Vars {
		set[k] = v
	}
	path := envValue(m.o.Env, "PATH")
	if m.o.Claude != nil {
		if dir, err := m.o.Claude.Prepare(base); err != nil {
			m.log.Warn("claude wrapper not prepared: claude in the terminal runs without Paige", "err", err)
		} else {
			path = dir + string(filepath.ListSeparator) + path
		}
	}
	set["PATH"] = strings.TrimSuffix(path, string(filepath.ListSeparator))
	for _, kv := range m.o.Env {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := set[k]; over || k == "PAIGE_TOKEN" {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// defaultShell is $SHELL from env when it exists, else /bin/bash, else /bin/sh.
func defaultShell(env []string) string {
	for _, s := range []string{envValue(env, "SHELL"), "/bin/bash", "/bin/sh"} {
		if s != "" && isExecutable(s) {
			return s
		}
	}
	return "/bin/sh"
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// LookPath finds an executable named file in the directories of path (a
// PATH value), like exec.LookPath does with the process's own PATH.
func LookPath(file, path string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, file)
		if isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
