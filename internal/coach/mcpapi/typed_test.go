package mcpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

type typedIn struct {
	Name string `json:"name"`
	N    int    `json:"n,omitempty"`
}

type typedOut struct {
	Greeting string `json:"greeting"`
	N        int    `json:"n"`
}

func greet(_ context.Context, _ *mcp.CallToolRequest, in typedIn) (*mcp.CallToolResult, typedOut, error) {
	if in.Name == "fail" {
		return nil, typedOut{}, errors.New("boom")
	}
	return nil, typedOut{Greeting: "hi " + in.Name, N: in.N}, nil
}

// typedTools registers the same test tools with add, either mcp.AddTool or
// ours, so their answers can be compared.
func typedTools(s *Server, add func(s *Server, t *mcp.Tool, kind string)) {
	defaults := &jsonschema.Schema{Type: "object", Required: []string{"name"}, Properties: map[string]*jsonschema.Schema{
		"name": {Type: "string"}, "n": {Type: "integer", Default: json.RawMessage("3")}}}
	add(s, &mcp.Tool{Name: "greet"}, "greet")
	add(s, &mcp.Tool{Name: "ptr"}, "ptr")
	add(s, &mcp.Tool{Name: "anyout", OutputSchema: schemaFor[typedOut]()}, "anyout")
	add(s, &mcp.Tool{Name: "defaults", InputSchema: defaults}, "greet")
	add(s, &mcp.Tool{Name: "anyin"}, "anyin")
}

func sdkAdd(s *Server, t *mcp.Tool, kind string) {
	switch kind {
	case "greet":
		mcp.AddTool(s.Server, t, greet)
	case "ptr":
		mcp.AddTool(s.Server, t, ptrTool)
	case "anyout":
		mcp.AddTool(s.Server, t, anyOutTool)
	case "anyin":
		mcp.AddTool(s.Server, t, anyInTool)
	}
}

func ourAdd(s *Server, t *mcp.Tool, kind string) {
	switch kind {
	case "greet":
		AddTool(s, t, greet)
	case "ptr":
		AddTool(s, t, ptrTool)
	case "anyout":
		AddTool(s, t, anyOutTool)
	case "anyin":
		AddTool(s, t, anyInTool)
	}
}

func ptrTool(_ context.Context, _ *mcp.CallToolRequest, in typedIn) (*mcp.CallToolResult, *typedOut, error) {
	if in.Name == "nil" {
		return nil, nil, nil
	}
	return nil, &typedOut{Greeting: in.Name}, nil
}

func anyOutTool(_ context.Context, _ *mcp.CallToolRequest, in typedIn) (*mcp.CallToolResult, any, error) {
	if in.Name == "none" {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "null"}}}, nil, nil
	}
	return nil, &typedOut{Greeting: in.Name}, nil
}

func anyInTool(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, typedOut, error) {
	return nil, typedOut{Greeting: "any"}, nil
}

// connectTyped connects a client to a server whose tools add registered,
// in memory or, when overHTTP, through Handler (where the tools AddTool
// added are called directly).
func connectTyped(t *testing.T, add func(s *Server, t *mcp.Tool, kind string), overHTTP bool) *mcp.ClientSession {
	t.Helper()
	s := &Server{Server: mcp.NewServer(&mcp.Implementation{Name: "typed"}, nil), tools: map[string]mcp.ToolHandler{}}
	typedTools(s, add)
	var ct mcp.Transport
	if overHTTP {
		hs := httptest.NewServer(Handler(s, nil, 0))
		t.Cleanup(hs.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: hs.URL}
	} else {
		var st mcp.Transport
		ct, st = mcp.NewInMemoryTransports()
		if _, err := s.Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// answer is a tool result reduced to what the model sees, JSON texts decoded.
type answer struct {
	IsError    bool
	Texts      []any
	Structured any
}

func callTyped(t *testing.T, cs *mcp.ClientSession, name string, args json.RawMessage) answer {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if args != nil {
		params.Arguments = args
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	a := answer{IsError: res.IsError, Structured: res.StructuredContent}
	for _, c := range res.Content {
		text := c.(*mcp.TextContent).Text
		var v any
		if json.Unmarshal([]byte(text), &v) == nil {
			a.Texts = append(a.Texts, v)
		} else {
			a.Texts = append(a.Texts, text)
		}
	}
	return a
}

// TestAddToolMatchesSDK checks that AddTool advertises the schemas
// mcp.AddTool does and answers every call — valid, invalid, erroring,
// null — the same way, error texts included, whether the SDK answers the
// call (in memory) or Handler's direct path does (over HTTP).
func TestAddToolMatchesSDK(t *testing.T) {
	for _, overHTTP := range []bool{false, true} {
		t.Run(map[bool]string{false: "in memory", true: "over HTTP"}[overHTTP], func(t *testing.T) {
			testAddToolMatchesSDK(t, connectTyped(t, sdkAdd, false), connectTyped(t, ourAdd, overHTTP))
		})
	}
}

func testAddToolMatchesSDK(t *testing.T, sdk, ours *mcp.ClientSession) {
	wantTools, err := sdk.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	gotTools, err := ours.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(asJSON(t, wantTools.Tools), asJSON(t, gotTools.Tools)); diff != "" {
		t.Errorf("tools/list (-sdk +ours):\n%s", diff)
	}
	for _, tc := range []struct {
		name, tool string
		args       string // "" sends no arguments
		// decoderError: the text ends with the JSON decoder's own message,
		// which differs (segmentio's in the SDK, encoding/json's here).
		decoderError bool
	}{
		{"valid", "greet", `{"name":"ada","n":2}`, false},
		{"omitted optional", "greet", `{"name":"ada"}`, false},
		{"missing required", "greet", `{"n":2}`, false},
		{"wrong type", "greet", `{"name":5}`, false},
		{"unknown property", "greet", `{"name":"ada","x":1}`, false},
		{"wrong case", "greet", `{"NAME":"ada"}`, false},
		{"no arguments", "greet", ``, false},
		{"null arguments", "greet", `null`, false},
		{"array arguments", "greet", `[1]`, true},
		{"tool error", "greet", `{"name":"fail"}`, false},
		{"pointer out", "ptr", `{"name":"ada"}`, false},
		{"nil pointer out", "ptr", `{"name":"nil"}`, false},
		{"any out", "anyout", `{"name":"ada"}`, false},
		{"nil any out", "anyout", `{"name":"none"}`, false},
		{"default applied", "defaults", `{"name":"ada"}`, false},
		{"default overridden", "defaults", `{"name":"ada","n":9}`, false},
		{"any in", "anyin", `{"whatever":[1,2]}`, false},
		{"any in, none", "anyin", ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var args json.RawMessage
			if tc.args != "" {
				args = json.RawMessage(tc.args)
			}
			want, got := callTyped(t, sdk, tc.tool, args), callTyped(t, ours, tc.tool, args)
			if tc.decoderError {
				const prefix = `validating "arguments": unmarshaling arguments: json: cannot unmarshal`
				for _, a := range []*answer{&want, &got} {
					if len(a.Texts) == 1 {
						if s, ok := a.Texts[0].(string); ok && strings.HasPrefix(s, prefix) {
							a.Texts[0] = prefix
						}
					}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s (-sdk +ours):\n%s", tc.tool, tc.args, diff)
			}
		})
	}
}

// asJSON is v as the client sees it on the wire.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestToolOutputsMatchSchemas validates the structured results of the
// read tools against their advertised output schemas: AddTool does not
// check them per call.
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
