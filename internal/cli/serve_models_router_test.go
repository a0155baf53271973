package cli

import (
	"strings"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// claude scripts the fake Messages API for the coaching features: scripted
// answers go, in order, to every request except the Observer's triage
// calls, which the running Observer (story 10) may make at any time and
// which get a "no nudge" answer.
type claude struct {
	fake *llmtest.Server
	mu   sync.Mutex
	q    []llmtest.Response                     // guarded by mu
	def  func(llmtest.Request) llmtest.Response // guarded by mu; nil: 500
}

func newClaude(tb testing.TB) *claude {
	tb.Helper()
	c := &claude{fake: llmtest.NewServer(tb)}
	c.fake.Handle(c.serve)
	return c
}

// URL is the fake's base URL.
func (c *claude) URL() string { return c.fake.URL() }

// Enqueue scripts the next answers to non-Observer requests.
func (c *claude) Enqueue(rs ...llmtest.Response) {
	c.mu.Lock()
	c.q = append(c.q, rs...)
	c.mu.Unlock()
}

// Handle answers non-Observer requests once the script is used up.
func (c *claude) Handle(f func(llmtest.Request) llmtest.Response) {
	c.mu.Lock()
	c.def = f
	c.mu.Unlock()
}

// Requests returns the non-Observer requests received, in order.
func (c *claude) Requests() []llmtest.Request {
	var out []llmtest.Request
	for _, r := range c.fake.Requests() {
		if !isTriage(r) {
			out = append(out, r)
		}
	}
	return out
}

func (c *claude) serve(r llmtest.Request) llmtest.Response {
	if isTriage(r) {
		return llmtest.JSON(observertriage.Response{Signal: "no_nudge", Reasoning: "test"})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.q) > 0 {
		next := c.q[0]
		c.q = c.q[1:]
		return next
	}
	if c.def != nil {
		return c.def(r)
	}
	return llmtest.Error(500, "api_error", "test: no scripted response")
}

func isTriage(r llmtest.Request) bool {
	return strings.HasPrefix(r.System, observertriage.SystemPrompt[:40])
}
