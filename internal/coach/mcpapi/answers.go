package mcpapi

import (
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCachedAnswers bounds bufferAnswers; past it the cache starts afresh.
const maxCachedAnswers = 64

// bufferAnswers keeps, per path, the last paige_get_buffer answer
// encoded: Claude Code polls the same buffer, which changes far less often
// than it is read. An entry is used only for a [BufferEntry] equal to the
// one it was encoded from, so the answer is exactly what encoding the
// entry again would give. It is safe for concurrent use.
type bufferAnswers struct {
	mu sync.Mutex
	m  map[string]*bufferAnswer // by path; guarded by mu
}

// bufferAnswer is one encoded entry: its JSON, and the same as a string
// for the text content. Immutable once stored.
type bufferAnswer struct {
	entry BufferEntry
	json  json.RawMessage
	text  string
}

// result returns the tool result for e — structured content e's JSON,
// text content the same JSON, as [AddTool] would build it — encoding e
// only when it differs from the path's cached entry.
func (c *bufferAnswers) result(e *BufferEntry) (*mcp.CallToolResult, error) {
	c.mu.Lock()
	a := c.m[e.Path]
	c.mu.Unlock()
	if a == nil || a.entry != *e {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		a = &bufferAnswer{entry: *e, json: b, text: string(b)}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxCachedAnswers {
			c.m = map[string]*bufferAnswer{}
		}
		c.m[e.Path] = a
		c.mu.Unlock()
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.text}}, StructuredContent: a.json}, nil
}
