package mcpapi

import (
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/limits"
)

// addTools registers the 12 tools of story 6. It is the only place tools
// are listed (paige_start_session and the coaching tools are added by
// [New] from its options); each goes through [AddTool], which applies the
// input caps. A new tool is one more AddTool line here.
func addTools(s *Server, d *Deps) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	AddTool(s, &mcp.Tool{Name: "paige_get_buffer", Annotations: readOnly, OutputSchema: bufferSchema(),
		Description: "Return the editor's current (possibly unsaved) buffer of a file: " +
			"{path, content, cursorPosition, dirty, lastUpdated}, or null when the file has no buffer."},
		d.getBuffer)
	AddTool(s, &mcp.Tool{Name: "paige_get_open_files", Annotations: readOnly,
		Description: "List the files open in the editor (opened by the developer or by paige_open_file)."},
		d.getOpenFiles)
	AddTool(s, &mcp.Tool{Name: "paige_get_diff", Annotations: readOnly,
		Description: "Unified diffs of unsaved edits against the files on disk: of one file, or of every dirty buffer when path is omitted."},
		d.getDiff)
	AddTool(s, &mcp.Tool{Name: "paige_get_session_state", Annotations: readOnly,
		Description: "Snapshot of the active coaching session. include selects items (open_files, buffers, diffs, " +
			"phase, plan, progress, hints, session, dreyfus); omitted or empty means all. Needs an active session."},
		d.getSessionState)
	AddTool(s, &mcp.Tool{Name: "paige_open_file",
		Description: "Open (or focus) a project file in the developer's editor. Reads the file; never writes."},
		d.openFile)
	AddTool(s, &mcp.Tool{Name: "paige_highlight_lines",
		Description: "Highlight a line range in a file. Highlights accumulate until paige_clear_highlights."},
		d.highlightLines)
	AddTool(s, &mcp.Tool{Name: "paige_clear_highlights",
		Description: "Remove highlights from one file, or from every file when path is omitted."},
		d.clearHighlights)
	AddTool(s, &mcp.Tool{Name: "paige_hint_files",
		Description: "Make files glow in the editor's file tree. Pass hints [{path, style, directories?}] " +
			"or paths with one style; at most " + strconv.Itoa(limits.PathsPerCall) + " paths per call."},
		d.hintFiles)
	AddTool(s, &mcp.Tool{Name: "paige_clear_hints",
		Description: "Remove every file-tree hint."},
		d.clearHints)
	AddTool(s, &mcp.Tool{Name: "paige_update_phase",
		Description: "Set the status of a phase of the current plan (pending, active, complete). Needs an active session."},
		d.updatePhase)
	AddTool(s, &mcp.Tool{Name: "paige_show_message",
		Description: "Show a coaching message in the editor: a toast, or a comment balloon when anchor is given."},
		d.showMessage)
	AddTool(s, &mcp.Tool{Name: "paige_show_issue_context",
		Description: "Show the issue being worked on in the editor's issue panel."},
		d.showIssueContext)
}

// schemaFor infers the JSON schema of T; it panics on a type that has none
// (a programming error caught at startup).
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	return s
}
