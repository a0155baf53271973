package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// token is the fixed terminal token (PAIGE_TOKEN) so that the browser's
// cookie stays valid across the journey's server restart.
const token = "e2e-token-0123456789abcdef0123456789"

// TestWorkbenchJourney is the end-to-end proof of the workbench: it builds
// the real paige binary, scripts Claude with llmtest, starts `paige serve`
// on a copy of examples/demo-project and runs web/workbench/e2e/journey.mjs
// in headless Chromium (playwright-core). The script asks this test to act
// as Claude Code (MCP tool calls with the official Go SDK client) and to
// restart the server; the steps are listed in journey.mjs. Screenshots go
// to PAIGE_E2E_SCREENSHOTS when set (docs/workbench/ is where the committed
// ones come from). It needs Chromium (PAIGE_TEST_CHROMIUM, set by
// scripts/ci/30-web.sh), node and web/workbench/node_modules.
func TestWorkbenchJourney(t *testing.T) {
	d := newDemo(t)
	fake := llmtest.NewServer(t)
	claudeModel := &model{}
	fake.Handle(claudeModel.reply)
	srv := startWorkbench(t, d.bin, []string{
		"PATH=" + testenv.ToolPath(t, "git"), "HOME=" + filepath.Join(d.tmp, "home"), "HOST=127.0.0.1",
		"PROJECT_DIR=" + d.project, "DATA_DIR=" + filepath.Join(d.tmp, "data"), "PAIGE_TOKEN=" + token,
		"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + fake.URL(), "LOG_FORMAT=json", "LOG_LEVEL=debug",
	})

	cc := &claudeCode{t: t, srv: srv, model: claudeModel}
	control := httptest.NewServer(cc.handler())
	t.Cleanup(control.Close)
	t.Cleanup(cc.close)

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if err := d.browser.Run(ctx, t, "e2e/journey.mjs", "WORKBENCH_URL="+srv.WorkbenchURL,
		"CONTROL_URL="+control.URL, "PROJECT_DIR="+d.project); err != nil {
		t.Errorf("journey.mjs: %v\npaige serve log (tail):\n%s", err, testenv.Tail(srv.Logs.String(), 6000))
	}
	for _, p := range claudeModel.problemList() {
		t.Errorf("scripted Claude: %s", p)
	}
	for _, kind := range []string{"plan", "explain", "gaps", "dreyfus", "review"} {
		if n := claudeModel.count(kind); n != 1 {
			t.Errorf("Claude %s requests: got %d, want 1", kind, n)
		}
	}
}

// claudeCode acts as Claude Code for journey.mjs: POST /<step> with a JSON
// body runs the step's MCP tool calls (or restarts the server) and answers
// the tool's structured result.
type claudeCode struct {
	t     testing.TB
	srv   *testenv.Serve
	model *model
	mu    sync.Mutex
	cs    *mcp.ClientSession
}

func (c *claudeCode) session(ctx context.Context) (*mcp.ClientSession, error) {
	if c.cs != nil {
		return c.cs, nil
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "claude-code-e2e", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.srv.Base + "/mcp"}, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp connect: %w", err)
	}
	c.cs = cs
	return cs, nil
}

func (c *claudeCode) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cs != nil {
		_ = c.cs.Close()
		c.cs = nil
	}
}

func (c *claudeCode) call(ctx context.Context, tool string, args any) (any, error) {
	cs, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		var msg []string
		for _, ct := range res.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				msg = append(msg, tc.Text)
			}
		}
		return nil, fmt.Errorf("%s: tool error: %s", tool, strings.Join(msg, " "))
	}
	return res.StructuredContent, nil
}

// step runs one journey step.
func (c *claudeCode) step(ctx context.Context, name string, in map[string]any) (any, error) {
	switch name {
	case "get_buffer":
		return c.call(ctx, "paige_get_buffer", in)
	case "highlight":
		return c.call(ctx, "paige_highlight_lines", in)
	case "hint":
		return c.call(ctx, "paige_hint_files", in)
	case "pipeline":
		return c.call(ctx, "paige_run_coaching_pipeline", map[string]any{
			"planText": "1. Read src/cart.ts\n2. Multiply price by quantity", "issueSummary": "The cart total ignores quantities"})
	case "phase":
		return c.call(ctx, "paige_update_phase", in)
	case "arm_nudge":
		c.model.arm()
		return map[string]any{"armed": true}, nil
	case "end_session":
		return c.call(ctx, "paige_end_session", map[string]any{"sessionTranscript": "User fixed the cart total with quantities."})
	case "restart":
		if c.cs != nil {
			_ = c.cs.Close()
			c.cs = nil
		}
		if err := c.srv.Restart(); err != nil {
			return nil, err
		}
		return map[string]any{"restarted": true}, nil
	}
	return nil, fmt.Errorf("unknown step %q", name)
}

func (c *claudeCode) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in := map[string]any{}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, "body: "+err.Error(), http.StatusBadRequest)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
		defer cancel()
		c.mu.Lock()
		out, err := c.step(ctx, strings.TrimPrefix(r.URL.Path, "/"), in)
		c.mu.Unlock()
		if err != nil {
			c.t.Logf("claude step %s: %v", r.URL.Path, err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}
