package mcpapi

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// knowledgeFake answers the knowledge tools with one item.
type knowledgeFake struct{}

func (knowledgeFake) SearchKnowledge(context.Context, string, int) ([]KnowledgeHit, error) {
	return []KnowledgeHit{{Source: "knowledge", ID: "k1", Content: "run make test before committing",
		Kind: "command", Origin: "s1", Date: "2026-12-01T10:00:00Z", Distance: 0.2}}, nil
}

func (knowledgeFake) GetKnowledge(context.Context, string) (KnowledgeItem, error) {
	return KnowledgeItem{Source: "knowledge", ID: "k1", Content: "run make test before committing",
		Kind: "command", Origin: "s1", Date: "2026-12-01T10:00:00Z", Tags: []string{"test"}}, nil
}

// TestToolOutputsMatchSchemas calls every tool the server lists, as the
// client gets its answers, and checks that a tool with an output schema
// answers structured content that validates against it (the null buffer
// included: its {} must validate) and text content that is the same JSON.
// AddTool marshals the output once and skips the SDK's second validation
// pass; this test is what stands for that pass, so a tool added without a
// case here fails it.
func TestToolOutputsMatchSchemas(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Extra = KnowledgeTools(knowledgeFake{}) })
	_, phases := h.plan(t, h.start(t))
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
			t.Errorf("%s advertises no output schema", tool.Name)
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
	called := map[string]bool{}
	for _, tc := range []struct{ tool, args string }{
		{"paige_get_buffer", `{"path":"src/auth.ts"}`},
		{"paige_get_buffer", `{"path":"no-buffer.ts"}`}, // null: {} must validate
		{"paige_get_open_files", `{}`},
		{"paige_get_diff", `{}`},
		{"paige_get_diff", `{"path":"src/auth.ts"}`},
		{"paige_get_session_state", `{}`},
		{"paige_open_file", `{"path":"src/auth.ts"}`},
		{"paige_highlight_lines", `{"path":"src/auth.ts","start":1,"end":1,"style":"hint"}`},
		{"paige_clear_highlights", `{}`},
		{"paige_hint_files", `{"paths":["src/auth.ts"],"style":"suggested"}`},
		{"paige_clear_hints", `{}`},
		{"paige_update_phase", `{"phase":` + strconv.Itoa(phases[0].Number) + `,"status":"active"}`},
		{"paige_show_message", `{"message":"hi","type":"info"}`},
		{"paige_show_issue_context", `{"title":"Fix OAuth race condition","summary":"Two logins race."}`},
		{"paige_search_knowledge", `{"query":"how are tests run"}`},
		{"paige_get_knowledge", `{"id":"k1"}`},
	} {
		called[tc.tool] = true
		t.Run(tc.tool+tc.args, func(t *testing.T) {
			r, ok := schemas[tc.tool]
			if !ok {
				t.Fatalf("%s is not listed with an output schema", tc.tool)
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
			if len(res.Content) != 1 {
				t.Fatalf("content %+v, want one text block", res.Content)
			}
			text, ok := res.Content[0].(*mcp.TextContent)
			if !ok {
				t.Fatalf("content %T, want text", res.Content[0])
			}
			var fromText any
			if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
				t.Fatalf("text content %q is not JSON: %v", text.Text, err)
			}
			if text.Text != "null" && !reflect.DeepEqual(fromText, v) {
				t.Errorf("text content %s is not the structured content %v", text.Text, v)
			}
		})
	}
	for name := range schemas {
		if !called[name] {
			t.Errorf("%s has no case here: add one", name)
		}
	}
}
