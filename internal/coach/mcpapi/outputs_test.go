package mcpapi

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// TestToolOutputsMatchSchemas validates the structured results of the
// read tools, as the client gets them, against their advertised output
// schemas (the null buffer included: its {} must validate).
func TestToolOutputsMatchSchemas(t *testing.T) {
	h := newHarness(t)
	h.start(t)
	if _, err := h.ws.UpdateBuffer("src/auth.ts", "export const x = 2;\n", workspace.Cursor{Line: 1}); err != nil {
		t.Fatal(err)
	}
	list, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		schemas[tool.Name] = r
	}
	for _, tc := range []struct{ tool, args string }{
		{"paige_get_buffer", `{"path":"src/auth.ts"}`},
		{"paige_get_buffer", `{"path":"no-buffer.ts"}`}, // null: {} must validate
		{"paige_get_open_files", `{}`},
		{"paige_get_diff", `{}`},
		{"paige_get_diff", `{"path":"src/auth.ts"}`},
		{"paige_get_session_state", `{}`},
	} {
		t.Run(tc.tool+tc.args, func(t *testing.T) {
			r, ok := schemas[tc.tool]
			if !ok {
				t.Fatalf("%s advertises no output schema", tc.tool)
			}
			res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			if err != nil || res.IsError {
				t.Fatalf("call: %v %+v", err, res)
			}
			v := res.StructuredContent
			if v == nil {
				t.Fatal("no structured content although an output schema is declared")
			}
			if err := r.Validate(&v); err != nil {
				t.Errorf("output %v does not match the schema: %v", v, err)
			}
		})
	}
}
