package mcpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddTool registers a typed tool like mcp.AddTool — same advertised input
// and output schemas, same argument validation and error texts, same
// structured and text content — at a fraction of the CPU per call, which
// matters for the tools Claude Code polls (paige_get_buffer).
//
// mcp.AddTool (go-sdk v1.8.0) decodes the arguments twice and the result
// once more with a decoder that allocates a 32 KiB buffer per call, and
// validates the handler's own output against the output schema. Here the
// arguments are decoded with encoding/json into a map for validation (by
// a precompiled check for flat schemas, see flatSchema, and otherwise by
// the resolved schema) and once into In; the output is marshalled once and not validated: it is
// produced by our code from the type the schema is inferred from (tests
// validate it, see TestToolOutputsMatchSchemas). Paige's own tools take
// their schemas from toolschemas_gen.go, generated from the types (see
// [toolSchemas]); any other tool's are inferred at registration. An In with a CheckLimits method (see
// limits.go) has it called before the handler; its error is the tool
// error. It panics on a type without a schema or
// a schema that does not resolve (a programming error caught at startup).
//
// The tool is added to the SDK's server and to s's table of tools that
// [Handler] calls directly; a name already added panics.
func AddTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	tt := *t
	in := toolSchemas[In, Out](s, &tt)
	var elemZero any
	if rt := reflect.TypeFor[Out](); rt.Kind() == reflect.Pointer {
		elemZero = reflect.Zero(rt.Elem()).Interface()
	}
	if _, dup := s.tools[tt.Name]; dup {
		panic(fmt.Errorf("mcpapi: tool %q added twice", tt.Name))
	}
	th := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := in.decode(req.Params.Arguments)
		if err != nil {
			return errResult(err), nil
		}
		var v In
		if err := json.Unmarshal(args, &v); err != nil {
			return errResult(err), nil
		}
		if l, ok := any(v).(limited); ok {
			if err := l.CheckLimits(); err != nil {
				return errResult(err), nil
			}
		}
		res, out, err := h(ctx, req, v)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire // a protocol error, as mcp.AddTool does
			}
			return errResult(err), nil
		}
		return withOutput(res, out, elemZero)
	}
	s.Server.AddTool(&tt, th)
	if s.d != nil {
		s.tools[tt.Name] = s.d.logged(th)
	} else {
		s.tools[tt.Name] = th
	}
}

// inputSchema validates arguments against a resolved schema.
type inputSchema struct {
	resolved    *lazyResolved
	hasDefaults bool        // the schema declares a default somewhere
	flat        *flatSchema // the precompiled check, nil when the schema is not flat
}

// toolSchemas sets tt's input and output schemas and returns the check of
// its arguments: the generated ones when tt is one of Paige's tools
// (generatedToolSchemas, for these In and Out), resolved on first use;
// otherwise inferred from In and Out and resolved now, as mcp.AddTool
// does. Both advertise the same JSON (TestToolSchemasGenerated).
func toolSchemas[In, Out any](s *Server, tt *mcp.Tool) inputSchema {
	inType, outType := reflect.TypeFor[In]().String(), reflect.TypeFor[Out]().String()
	var in inputSchema
	if g, ok := generatedToolSchemas[tt.Name]; ok && !s.inferSchemas && g.inType == inType && g.outType == outType {
		tt.InputSchema = json.RawMessage(g.in)
		if g.out != "" {
			tt.OutputSchema = json.RawMessage(g.out)
		}
		in = generatedInput(g.in)
	} else {
		in = resolveSchema[In](&tt.InputSchema, reflect.TypeFor[In]() == reflect.TypeFor[any]())
		if tt.OutputSchema != nil || reflect.TypeFor[Out]() != reflect.TypeFor[any]() {
			resolveSchema[Out](&tt.OutputSchema, false)
		}
	}
	if s.schemaAdded != nil {
		s.schemaAdded(tt, inType, outType, in)
	}
	return in
}

// resolveSchema infers *field from T when it is nil (an empty object
// schema when anyObject) and resolves it.
func resolveSchema[T any](field *any, anyObject bool) inputSchema {
	if *field == nil {
		if anyObject {
			*field = &jsonschema.Schema{Type: "object"}
		} else {
			rt := reflect.TypeFor[T]()
			if rt.Kind() == reflect.Pointer {
				rt = rt.Elem()
			}
			sch, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
			if err != nil {
				panic(fmt.Errorf("mcpapi: schema of %v: %w", rt, err))
			}
			*field = sch
		}
	}
	sch, ok := (*field).(*jsonschema.Schema)
	if !ok {
		panic(fmt.Errorf("mcpapi: schema %T is not a *jsonschema.Schema", *field))
	}
	r, err := sch.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Errorf("mcpapi: resolve schema: %w", err))
	}
	raw, err := json.Marshal(sch)
	if err != nil {
		panic(fmt.Errorf("mcpapi: marshal schema: %w", err))
	}
	return inputSchema{resolved: resolvedNow(r), hasDefaults: hasDefaults(raw), flat: compileFlatJSON(raw)}
}

// hasDefaults reports whether a schema's JSON declares a default somewhere.
func hasDefaults(raw []byte) bool { return bytes.Contains(raw, []byte(`"default":`)) }

// decode validates the raw arguments (absent is {}), applies the schema's
// defaults and returns the JSON to unmarshal into In. Errors read like the
// SDK's. Arguments that a flat schema without defaults surely accepts as
// sent ([flatSchema.validRaw]) are returned as they are, undecoded, as
// the decoding path would return them.
func (s inputSchema) decode(raw json.RawMessage) (json.RawMessage, error) {
	if !s.hasDefaults && s.flat != nil && len(raw) > 0 && s.flat.validRaw(raw) {
		return raw, nil
	}
	return s.decodeMap(raw)
}

// decodeMap is decode by way of the arguments decoded into a map, which
// the flat check or the resolved schema validates.
func (s inputSchema) decodeMap(raw json.RawMessage) (json.RawMessage, error) {
	m := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
	}
	var v any = m
	if s.hasDefaults {
		if err := s.resolved.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
		}
	}
	if s.hasDefaults || s.flat == nil || !s.flat.valid(m) { // the flat check only ever says valid
		if err := s.resolved.Validate(&v); err != nil {
			return nil, fmt.Errorf("validating \"arguments\": %w", err)
		}
	}
	if s.hasDefaults || len(raw) == 0 {
		return json.Marshal(v)
	}
	return raw, nil
}

// withOutput puts out into res as structured content and, when res has no
// content, as its JSON text (what mcp.AddTool does). A nil pointer Out is
// its element's zero value; a nil any is no structured content.
func withOutput(res *mcp.CallToolResult, out, elemZero any) (*mcp.CallToolResult, error) {
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	if res.InputRequests != nil {
		return res, nil
	}
	if elemZero != nil && reflect.ValueOf(out).IsNil() {
		out = elemZero
	}
	if out == nil {
		return res, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("marshaling output: %w", err)
	}
	res.StructuredContent = json.RawMessage(b)
	if res.Content == nil {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	} else if len(b) == 0 || b[0] != '{' {
		res.Content = append(res.Content, &mcp.TextContent{Text: string(b)})
	}
	return res, nil
}

func errResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
