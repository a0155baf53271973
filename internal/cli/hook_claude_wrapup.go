package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

// maxWrapUpTranscript bounds the condensed transcript sent for the wrap-up;
// the end of the session is kept (the server cuts longer ones too).
const maxWrapUpTranscript = 50_000

// wrapUpTimeout bounds the wrap-up call: three model calls on the server.
const wrapUpTimeout = 5 * time.Minute

// wrapUpLogPath is where the detached wrap-up writes what it did.
func wrapUpLogPath(cfg config.Config) string {
	return filepath.Join(cfg.DataDir, "logs", "wrapup.log")
}

func newHookWrapUpCmd(e *env) *cobra.Command {
	var transcriptPath string
	cmd := &cobra.Command{
		Use:    "wrap-up",
		Short:  "Wrap up the active coaching session (started by session-end; not a hook itself)",
		Hidden: true,
		Long: `Condenses the Claude Code transcript and asks the running paige serve to wrap up the
active coaching session (paige_end_session). When the server is not running the wrap-up is
queued in DATA_DIR/wrapup-queue and the next paige serve runs it. The server runs a session's
wrap-up at most once. Prints one line saying what happened.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(e.getenv)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			fmt.Fprintln(e.stdout, wrapUp(ctx, cfg, condenseTranscript(transcriptPath)))
			return nil
		},
	}
	cmd.Flags().StringVar(&transcriptPath, "transcript", "", "Claude Code transcript (JSONL) to condense")
	return cmd
}

// wrapUpOnSessionEnd starts the wrap-up when a coaching session is active
// in cwd: detached when the server answers (the wrap-up takes model calls,
// the hook must return at once), queued for the next paige serve when it
// does not. PAIGE_WRAPUP=inline runs it before returning (debugging, tests).
func wrapUpOnSessionEnd(ctx context.Context, e *env, cfg config.Config, in hook.Input) {
	if ctx == nil {
		ctx = context.Background()
	}
	active, err := store.CoachingActive(ctx, cfg.DataDir, in.Cwd)
	if err != nil {
		hookError(e, "session-end", fmt.Errorf("coaching session: %w", err))
		return
	}
	if !active {
		return
	}
	if cfg.Learn.WrapUp == config.Inline || !serverListening(cfg.Port) {
		fmt.Fprintf(e.stderr, "paige hook session-end: %s\n", wrapUp(ctx, cfg, condenseTranscript(in.TranscriptPath)))
		return
	}
	if err := startWrapUp(e, cfg, in.TranscriptPath); err != nil {
		hookError(e, "session-end", fmt.Errorf("start the wrap-up: %w", err))
		fmt.Fprintf(e.stderr, "paige hook session-end: %s\n", queueWrapUp(cfg, condenseTranscript(in.TranscriptPath)))
	}
}

// startWrapUp runs `paige hook wrap-up` detached, logging to wrapup.log.
func startWrapUp(e *env, cfg config.Config, transcriptPath string) error {
	bin, err := paigeBinary(cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(wrapUpLogPath(cfg)), 0o700); err != nil {
		return err
	}
	log, err := os.OpenFile(wrapUpLogPath(cfg), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	return startDetached(bin, []string{"hook", "wrap-up", "--transcript", transcriptPath}, log)
}

// serverListening reports whether something accepts connections on the
// server's port (a quick dial; the MCP call says whether it is Paige).
func serverListening(port int) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 300*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// wrapUp asks the server to wrap up, queueing the wrap-up when the server
// cannot be reached; it returns one line saying what happened.
func wrapUp(ctx context.Context, cfg config.Config, text string) string {
	ctx, cancel := context.WithTimeout(ctx, wrapUpTimeout)
	defer cancel()
	res, err := callEndSession(ctx, cfg.Port, text)
	var unreachable *unreachableError
	switch {
	case errors.As(err, &unreachable):
		return queueWrapUp(cfg, text)
	case err != nil:
		return stamp("wrap-up failed: " + err.Error())
	}
	return stamp("wrap-up: " + res)
}

// queueWrapUp queues the wrap-up for the next paige serve.
func queueWrapUp(cfg config.Config, text string) string {
	path, err := coaching.QueueWrapUp(cfg.DataDir, coaching.QueuedWrapUp{Transcript: text})
	if err != nil {
		return stamp("wrap-up lost: the server is down and queueing failed: " + err.Error())
	}
	return stamp("server not running: wrap-up queued in " + path + " for the next paige serve")
}

func stamp(s string) string { return time.Now().UTC().Format(time.RFC3339) + " " + s }

// unreachableError is a failure to reach the server at all.
type unreachableError struct{ err error }

func (u *unreachableError) Error() string { return "server unreachable: " + u.err.Error() }
func (u *unreachableError) Unwrap() error { return u.err }

// callEndSession calls paige_end_session on the server at port and returns
// its answer as text (the tool's structured result, or its error text).
func callEndSession(ctx context.Context, port int, text string) (string, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "paige-session-end-hook", Version: "1"}, nil)
	endpoint := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/mcp"
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{}}, nil)
	if err != nil {
		return "", &unreachableError{err}
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "paige_end_session", Arguments: map[string]any{"sessionTranscript": text}})
	if err != nil {
		// The server went away or the call broke: queue it. The next
		// serve runs it on the session still active, and does nothing if
		// this call did finish (a session is wrapped up once).
		return "", &unreachableError{fmt.Errorf("paige_end_session: %w", err)}
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	out := strings.Join(parts, " ")
	if res.IsError {
		return "not run: " + out, nil // no active session, or offline: the server keeps the session
	}
	return out, nil
}

// condenseTranscript turns a Claude Code transcript into "role: text"
// lines, keeping the end when it is longer than maxWrapUpTranscript. A
// transcript that cannot be read gives a one-line note instead: the
// wrap-up still runs on what the server recorded.
func condenseTranscript(path string) string {
	if path == "" {
		return "(no transcript)"
	}
	turns, _, err := transcript.ReadFile(path, nil)
	if err != nil {
		return "(transcript unreadable: " + err.Error() + ")"
	}
	var b strings.Builder
	for _, t := range turns {
		text := strings.TrimSpace(t.Content)
		if text == "" {
			continue
		}
		who := "developer"
		if t.Role == learn.Assistant {
			who = "claude"
		}
		b.WriteString(who + ": " + text + "\n")
	}
	s := b.String()
	if len(s) > maxWrapUpTranscript {
		s = s[len(s)-maxWrapUpTranscript:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	if s == "" {
		return "(empty transcript)"
	}
	return s
}
