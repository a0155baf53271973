package cli

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/server"
)

// Status is the body of GET /api/v1/status: what the workbench's Status
// page and its first-run panel show (docs/workbench.md).
type Status struct {
	Version    string           `json:"version"`
	Models     StatusModels     `json:"models"`
	ProjectDir string           `json:"projectDir"`
	DataDir    string           `json:"dataDir"`
	MCPURL     string           `json:"mcpUrl"`
	Connect    StatusConnect    `json:"connect"`
	ClaudeCode StatusClaudeCode `json:"claudeCode"`
	Session    *StatusSession   `json:"session"` // nil: no coaching session
	Memory     string           `json:"memory"`  // the memory backend: "embedded (DATA_DIR/memory.db)" or "chroma (URL)"
	Learning   string           `json:"learning"`
	Docs       []StatusLink     `json:"docs"`
}

// StatusModels are the model tiers and whether a Claude key is set.
type StatusModels struct {
	KeySet  bool   `json:"keySet"`
	Offline bool   `json:"offline"`
	Haiku   string `json:"haiku"`
	Sonnet  string `json:"sonnet"`
	Opus    string `json:"opus"`
}

// StatusConnect is how to connect Claude Code to this server: the plugin's
// installer, or the one `claude mcp add` line with this server's MCP URL.
type StatusConnect struct {
	Install string `json:"install"`
	MCPAdd  string `json:"mcpAdd"`
	Coach   string `json:"coach"`
}

// StatusClaudeCode is Claude Code's connection state: Connected while an
// MCP session is open, EverConnected once one was initialised (persisted
// in DATA_DIR, so the first-run panel stays gone after a restart).
type StatusClaudeCode struct {
	Connected     bool `json:"connected"`
	Sessions      int  `json:"sessions"`
	EverConnected bool `json:"everConnected"`
}

// StatusSession is the active coaching session and how to end it.
type StatusSession struct {
	ID          string    `json:"id"`
	IssueNumber *int      `json:"issueNumber,omitempty"`
	IssueTitle  string    `json:"issueTitle,omitempty"`
	StartedAt   time.Time `json:"startedAt"`
	HowToEnd    string    `json:"howToEnd"`
}

// StatusLink is one documentation page.
type StatusLink struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// docsBase is where the documentation is published (the repository's docs/).
const docsBase = "https://github.com/paige-dev/paige/blob/main/docs/"

var statusDocs = []StatusLink{
	{"The workbench", docsBase + "workbench.md"},
	{"Claude Code and the plugin", docsBase + "claude-code.md"},
	{"Configuration", docsBase + "configuration.md"},
	{"Models and keys", docsBase + "models.md"},
	{"Memory", docsBase + "memory.md"},
	{"Shadow learning", docsBase + "learn.md"},
}

// howToEnd says how a coaching session ends.
const howToEnd = "Run /paige:finish in Claude Code, press End session on the Work page, or run `paige session end`."

// connectLines are the commands that connect Claude Code to base (the
// server's http://host:port), named in the startup output and the status.
func connectLines(base string) StatusConnect {
	return StatusConnect{
		Install: "paige claude install",
		MCPAdd:  "claude mcp add --transport http paige " + base + "/mcp",
		Coach:   "/paige:coach <issue number or description>",
	}
}

// claudeCodeSeen records that Claude Code (any MCP client) initialised a
// session with this server, in DATA_DIR/claude-code-connected, so that the
// first-run panel is shown only until that first happens.
type claudeCodeSeen struct {
	path string
	seen atomic.Bool
}

func newClaudeCodeSeen(dataDir string) *claudeCodeSeen {
	c := &claudeCodeSeen{path: filepath.Join(dataDir, "claude-code-connected")}
	if _, err := os.Stat(c.path); err == nil {
		c.seen.Store(true)
	}
	return c
}

// mark records the first initialisation (once per process at most).
func (c *claudeCodeSeen) mark() error {
	if c.seen.Swap(true) {
		return nil
	}
	return os.WriteFile(c.path, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644)
}

// middleware marks c when an MCP initialize request is answered.
func (c *claudeCodeSeen) middleware(log func(error)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "initialize" && err == nil {
				if merr := c.mark(); merr != nil {
					log(merr)
				}
			}
			return res, err
		}
	}
}

// statusDeps are what the status reads; set by wireCoach.
type statusDeps struct {
	sess     *session.Service
	sessions func() int // open MCP sessions
	seen     *claudeCodeSeen
}

// handleStatus answers GET /api/v1/status. The MCP URL is built from the
// request's Host, which the origin policy has already accepted.
func handleStatus(cfg config.Config, d *statusDeps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		st := Status{
			Version: Version,
			Models: StatusModels{KeySet: cfg.HasModel(), Offline: cfg.Offline, Haiku: cfg.ModelHaiku,
				Sonnet: cfg.ModelSonnet, Opus: cfg.ModelOpus},
			ProjectDir: cfg.ProjectDir, DataDir: cfg.DataDir, MCPURL: base + "/mcp",
			Connect: connectLines(base), Memory: memoryBackend(cfg), Learning: learningBackend(cfg), Docs: statusDocs,
		}
		if d.sessions != nil {
			st.ClaudeCode.Sessions = d.sessions()
		}
		st.ClaudeCode.Connected = st.ClaudeCode.Sessions > 0
		st.ClaudeCode.EverConnected = d.seen.seen.Load()
		if s, ok := d.sess.Active(); ok {
			st.Session = &StatusSession{ID: s.ID, IssueNumber: s.IssueNumber, IssueTitle: s.IssueTitle,
				StartedAt: s.StartedAt, HowToEnd: howToEnd}
		}
		w.Header().Set("Cache-Control", "no-store")
		server.Encode(w, http.StatusOK, st)
	})
}

func memoryBackend(cfg config.Config) string {
	switch strings.ToLower(strings.TrimSpace(cfg.Memory)) {
	case "chroma", "chromadb":
		return "ChromaDB at " + cfg.ChromaURL()
	}
	return "embedded (" + filepath.Join(cfg.DataDir, "memory.db") + ")"
}

func learningBackend(cfg config.Config) string {
	ex := cfg.Extractor
	if ex == "" {
		ex = config.ExtractorAuto
	}
	model := cfg.Learn.LearnModel
	switch {
	case ex == config.ExtractorHeuristic:
		return "heuristics only (PAIGE_EXTRACTOR=heuristic)"
	case model != "":
		return "extractor " + ex + ", model " + model
	case cfg.HasModel():
		return "extractor " + ex + ", model " + cfg.ModelHaiku
	}
	return "extractor " + ex + ", heuristics only (no Claude key)"
}
