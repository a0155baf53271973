package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Input is the JSON Claude Code writes to a command hook's stdin. Fields an
// event does not carry are empty.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`  // PreToolUse
	ToolInput      json.RawMessage `json:"tool_input,omitempty"` // PreToolUse
	Reason         string          `json:"reason,omitempty"`     // SessionEnd: clear, logout, prompt_input_exit, other
	Source         string          `json:"source,omitempty"`     // SessionStart: startup, resume, clear, compact
}

// MaxInput bounds how much of stdin a hook reads (tool inputs carry whole
// files for Write).
const MaxInput = 64 << 20

// ErrEmptyInput is returned by [ReadInput] when stdin holds nothing. Its
// text predates this package (hooks print it) and is kept as it was.
var ErrEmptyInput = errors.New("claudecode: empty hook input")

// ReadInput reads and decodes one hook input from r. Unknown fields are
// ignored; malformed JSON is an error, never a panic.
func ReadInput(r io.Reader) (Input, error) {
	in, _, err := readInput(r)
	return in, err
}

// readInput is [ReadInput] also returning the bytes read (nil when reading
// failed or they were too many).
func readInput(r io.Reader) (in Input, data []byte, err error) {
	data, err = io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return in, nil, fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > MaxInput {
		return in, nil, fmt.Errorf("hook input larger than %d bytes", MaxInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return in, data, ErrEmptyInput
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, data, fmt.Errorf("decode hook input: %w", err)
	}
	return in, data, nil
}

// SilentError is returned by [ReadInputWithin] when stdin stays silent for
// Timeout.
type SilentError struct{ Timeout time.Duration }

func (e *SilentError) Error() string { return fmt.Sprintf("no hook input within %v", e.Timeout) }

// ReadInputWithin is [ReadInput] bounded by timeout: when r has not ended
// within it, it returns a *[SilentError] and leaves the read running on its
// goroutine (a hook's process ends soon after).
func ReadInputWithin(r io.Reader, timeout time.Duration) (Input, error) {
	in, _, err := readInputWithin(r, timeout)
	return in, err
}

// readInputWithin is [ReadInputWithin] also returning the bytes read, as
// readInput does (nil after a timeout).
func readInputWithin(r io.Reader, timeout time.Duration) (Input, []byte, error) {
	type result struct {
		in   Input
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		in, data, err := readInput(r)
		done <- result{in, data, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.in, r.data, r.err
	case <-t.C:
		return Input{}, nil, &SilentError{Timeout: timeout}
	}
}
