package mcpapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// PathIn is the input of tools that take one file.
type PathIn struct {
	Path string `json:"path" jsonschema:"file path, relative to the project or absolute inside it"`
}

// OptionalPathIn is the input of tools whose path is optional.
type OptionalPathIn struct {
	Path string `json:"path,omitempty" jsonschema:"file path; omit for every file"`
}

// EmptyIn is the input of tools without parameters.
type EmptyIn struct{}

// BufferEntry is the spec's BufferEntry plus the normalised path.
type BufferEntry struct {
	Path           string           `json:"path"`
	Content        string           `json:"content"`
	CursorPosition workspace.Cursor `json:"cursorPosition"`
	Dirty          bool             `json:"dirty"`
	LastUpdated    string           `json:"lastUpdated" jsonschema:"ISO 8601"`
}

func bufferEntry(b workspace.Buffer) *BufferEntry {
	return &BufferEntry{Path: b.Path, Content: b.Content, CursorPosition: b.CursorPosition, Dirty: b.Dirty,
		LastUpdated: b.LastUpdated.UTC().Format("2006-01-02T15:04:05.000Z")}
}

// getBuffer returns the buffer of a file (scenario 6.1), or null (6.2):
// the text content "null" and, because the tool declares an output schema
// and MCP then requires structured content on every successful result, the
// empty object (the schema's fields are all optional: see bufferSchema).
// Out is any because the SDK turns a nil typed pointer into a zero struct.
func (d *Deps) getBuffer(_ context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, any, error) {
	if in.Path == "" {
		return nil, nil, errors.New("path is required")
	}
	b, ok, err := d.files.Buffer(in.Path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in.Path, err)
	}
	if !ok {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "null"}},
			StructuredContent: map[string]any{}}, nil, nil
	}
	return nil, bufferEntry(b), nil
}

// bufferSchema is paige_get_buffer's output schema: a [BufferEntry] whose
// fields are all optional, so the empty object of the null case validates.
func bufferSchema() *jsonschema.Schema {
	s := schemaFor[BufferEntry]()
	s.Required = nil
	s.Description = "the buffer, or the empty object (text content null) when the file has no buffer"
	return s
}

// OpenFilesOut is paige_get_open_files' result.
type OpenFilesOut struct {
	Files []string `json:"files"`
}

func (d *Deps) getOpenFiles(context.Context, *mcp.CallToolRequest, EmptyIn) (*mcp.CallToolResult, OpenFilesOut, error) {
	return nil, OpenFilesOut{Files: d.sess.OpenFiles()}, nil
}

// DiffsOut is paige_get_diff's result.
type DiffsOut struct {
	Diffs []workspace.FileDiff `json:"diffs"`
}

// getDiff returns one file's diff or every dirty file's (6.4, 6.5); no
// dirty buffer is an empty list, not an error (EC-34).
func (d *Deps) getDiff(_ context.Context, _ *mcp.CallToolRequest, in OptionalPathIn) (*mcp.CallToolResult, DiffsOut, error) {
	if in.Path == "" {
		diffs, err := d.files.Diffs()
		if err != nil {
			return nil, DiffsOut{}, fmt.Errorf("diff: %w", err)
		}
		return nil, DiffsOut{Diffs: diffs}, nil
	}
	diff, err := d.files.Diff(in.Path)
	if err != nil {
		return nil, DiffsOut{}, fmt.Errorf("%s: %w", in.Path, err)
	}
	out := DiffsOut{Diffs: []workspace.FileDiff{}}
	if diff != "" {
		b, _, _ := d.files.Buffer(in.Path)
		out.Diffs = append(out.Diffs, workspace.FileDiff{Path: b.Path, Diff: diff})
	}
	return nil, out, nil
}
