package hook

import (
	"encoding/json"
	"strings"

	"github.com/paige-dev/paige/internal/jsonscan"
)

// inputNames are the JSON names of [Input]'s fields.
var inputNames = [...]string{"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode", "tool_name", "tool_input", "reason", "source"}

// maxScanDepth bounds the nesting scanInput reads in tool_input; deeper
// input goes to encoding/json (which allows 10,000 levels).
const maxScanDepth = 64

// decodeInput decodes one hook input as json.Unmarshal into an [Input]
// does: scanInput for the plain shape Claude Code writes, encoding/json
// for anything else, so that every value and every error stays exactly
// encoding/json's (FuzzDecodeInput). In a process that lives a few
// milliseconds, encoding/json's first use of a struct type (building its
// field cache by reflection) costs more than the hook's own work.
func decodeInput(data []byte) (Input, error) {
	if in, ok := scanInput(data); ok {
		return in, nil
	}
	var in Input
	err := json.Unmarshal(data, &in)
	return in, err
}

// scanInput decodes data, a JSON object, into an Input and reports
// whether it could do so with certainty: keys without escapes, each either
// exactly one of inputNames or unlike all of them (encoding/json matches
// names case-insensitively too), strings for the string fields, any value
// but null for tool_input (kept as its raw bytes), and nothing but
// whitespace after the object. Everything else (a null, a number where a
// string belongs, malformed JSON, deep nesting) is left to encoding/json:
// ok is false and in is meaningless. A key given twice keeps its last
// value, as in encoding/json.
func scanInput(data []byte) (in Input, ok bool) {
	i := jsonscan.Space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return in, false
	}
	if i = jsonscan.Space(data, i+1); i < len(data) && data[i] == '}' {
		return in, jsonscan.Space(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return in, false
		}
		end, escaped := jsonscan.StringEnd(data, i)
		if end < 0 || escaped {
			return in, false
		}
		key := data[i+1 : end-1]
		if i = jsonscan.Space(data, end); i >= len(data) || data[i] != ':' {
			return in, false
		}
		if i = scanInputValue(&in, key, data, jsonscan.Space(data, i+1)); i < 0 {
			return in, false
		}
		if i = jsonscan.Space(data, i); i >= len(data) {
			return in, false
		}
		switch data[i] {
		case ',':
			i = jsonscan.Space(data, i+1)
		case '}':
			return in, jsonscan.Space(data, i+1) == len(data)
		default:
			return in, false
		}
	}
}

// scanInputValue reads the value at i (whitespace skipped) for key into in
// and returns the index after it, -1 when scanInput must give up.
func scanInputValue(in *Input, key, data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	if string(key) == "tool_input" {
		if data[i] == 'n' {
			return -1
		}
		end := jsonscan.Skip(data, i, 0, maxScanDepth)
		if end < 0 {
			return -1
		}
		in.ToolInput = append(json.RawMessage(nil), data[i:end]...)
		return end
	}
	field := in.stringField(string(key))
	if field == nil {
		for _, name := range inputNames {
			if strings.EqualFold(string(key), name) {
				return -1
			}
		}
		return jsonscan.Skip(data, i, 0, maxScanDepth)
	}
	if data[i] != '"' {
		return -1
	}
	s, end := jsonscan.String(data, i)
	if end < 0 {
		return -1
	}
	*field = s
	return end
}

// stringField is the string field of in whose JSON name is name, nil for
// tool_input and for names Input does not have.
func (in *Input) stringField(name string) *string {
	switch name {
	case "session_id":
		return &in.SessionID
	case "transcript_path":
		return &in.TranscriptPath
	case "cwd":
		return &in.Cwd
	case "hook_event_name":
		return &in.HookEventName
	case "permission_mode":
		return &in.PermissionMode
	case "tool_name":
		return &in.ToolName
	case "reason":
		return &in.Reason
	case "source":
		return &in.Source
	}
	return nil
}
