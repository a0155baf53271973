package mcpapi

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddTool registers a typed tool with mcp.AddTool — input and output
// schemas inferred from In and Out, arguments validated against the
// input schema, structured and text content built from Out — and checks
// the input's size limits before h runs: an In with a CheckLimits method
// (see limits.go) has it called once the arguments are decoded, and its
// error is the tool error the client gets; h never sees an input over a
// limit.
func AddTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	mcp.AddTool(s.Server, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		if l, ok := any(in).(limited); ok {
			if err := l.CheckLimits(); err != nil {
				var zero Out
				return nil, zero, err
			}
		}
		return h(ctx, req, in)
	})
}
