package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddTool registers a typed tool with mcp.AddTool — input schema inferred
// from In and arguments validated against it, output schema inferred from
// Out (or t.OutputSchema when set) — and checks the input's size limits
// before h runs: an In with a CheckLimits method (see limits.go) has it
// called once the arguments are decoded, and its error is the tool error
// the client gets; h never sees an input over a limit.
//
// The structured content is Out marshalled once, by [structured], and the
// text content that JSON, as the SDK builds them; the SDK's second pass
// over the output (decode into a map, validate against the schema Out was
// inferred from, encode again) is skipped because it cost a third of a
// paige_get_buffer call and cannot fail for an Out the schema came from
// (TestToolOutputsMatchSchemas checks every tool's answers against the
// schemas tools/list advertises).
func AddTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if reflect.TypeFor[Out]().Kind() == reflect.Pointer {
		panic("mcpapi.AddTool: " + t.Name + ": Out must not be a pointer")
	}
	tt := *t
	if tt.OutputSchema == nil && reflect.TypeFor[Out]() != reflect.TypeFor[any]() {
		tt.OutputSchema = schemaFor[Out]()
	}
	mcp.AddTool(s.Server, &tt, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		if l, ok := any(in).(limited); ok {
			if err := l.CheckLimits(); err != nil {
				return nil, nil, err
			}
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return nil, nil, err
		}
		if o := any(out); o != nil {
			res, err = structured(res, o)
		}
		return res, nil, err
	})
}

// structured returns res (a new result when nil) with out marshalled as
// its structured content and, when res has no content, that JSON as its
// text content too (the MCP spec's fallback for clients that read only
// text), as mcp.AddTool would.
func structured(res *mcp.CallToolResult, out any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("marshaling output: %w", err)
	}
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	res.StructuredContent = json.RawMessage(b)
	if res.Content == nil {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	}
	return res, nil
}
