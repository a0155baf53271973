package terminal

import (
	"encoding/json"
	"fmt"
)

// Control message types of the /pty protocol. Terminal output travels in
// binary frames; text frames carry one JSON control message each.
const (
	TypeInput  = "input"  // client → server: keystrokes
	TypeResize = "resize" // client → server: window size
	TypeExit   = "exit"   // server → client: the shell ended
	TypeError  = "error"  // server → client: the terminal failed
)

// MaxSize bounds cols and rows of a resize.
const MaxSize = 1000

// Input is keystrokes for the shell: {"type":"input","data":"ls\r"}.
type Input struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

// Resize is the terminal's new size: {"type":"resize","cols":120,"rows":30};
// each between 1 and [MaxSize].
type Resize struct {
	Type string `json:"type"`
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
}

// Exit tells the client the shell ended with Code (-1 when killed by a
// signal); the server closes the socket next.
type Exit struct {
	Type string `json:"type"`
	Code int    `json:"code"`
}

// Error tells the client the terminal failed (the shell could not start).
type Error struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ControlSpec describes one control message of the /pty protocol, for the
// generated TypeScript types and the docs.
type ControlSpec struct {
	Type       string
	FromClient bool
	Payload    any // a zero value of the message struct
}

// Controls is every control message of the /pty protocol.
var Controls = []ControlSpec{
	{TypeInput, true, Input{}},
	{TypeResize, true, Resize{}},
	{TypeExit, false, Exit{}},
	{TypeError, false, Error{}},
}

// control is a decoded client control message: exactly one of input or
// resize is set.
type control struct {
	input  *Input
	resize *Resize
}

// parseControl decodes one client text frame. Unknown types, bad JSON and
// sizes outside 1..MaxSize are errors; the caller answers them and goes on.
func parseControl(b []byte) (control, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return control{}, fmt.Errorf("control message is not JSON: %w", err)
	}
	switch head.Type {
	case TypeInput:
		var in Input
		if err := json.Unmarshal(b, &in); err != nil {
			return control{}, fmt.Errorf("input: %w", err)
		}
		return control{input: &in}, nil
	case TypeResize:
		var rs Resize
		if err := json.Unmarshal(b, &rs); err != nil {
			return control{}, fmt.Errorf("resize: %w", err)
		}
		if rs.Cols < 1 || rs.Rows < 1 || rs.Cols > MaxSize || rs.Rows > MaxSize {
			return control{}, fmt.Errorf("resize: cols and rows must be 1..%d, got %dx%d", MaxSize, rs.Cols, rs.Rows)
		}
		return control{resize: &rs}, nil
	}
	return control{}, fmt.Errorf("unknown control message type %q", head.Type)
}
