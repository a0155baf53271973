package hook

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hookInputJSON is what Claude Code writes to a SessionStart hook.
const hookInputJSON = `{"session_id":"sess-42","transcript_path":"/tmp/t.jsonl","cwd":"/work/x","hook_event_name":"SessionStart","source":"startup","permission_mode":"default"}`

// pipeWith returns the read end of a pipe holding data, its write end
// closed when closeWriter is set (kept open until the test ends otherwise).
func pipeWith(t *testing.T, data string, closeWriter bool) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if _, err := w.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if closeWriter {
		w.Close()
	}
	return r
}

// TestReadInputWithin: stdin (a pipe or a regular file) holding the input
// is decoded; an empty one, malformed input, and a pipe whose writer stays
// silent (or writes part of the input and then stays silent) give their
// errors, the silent ones a *SilentError after the timeout.
func TestReadInputWithin(t *testing.T) {
	regular := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(regular, []byte(hookInputJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	const silence = 50 * time.Millisecond // only the silent cases wait it out
	tests := []struct {
		name    string
		file    func() *os.File
		timeout time.Duration
		wantErr string
	}{
		{"pipe", func() *os.File { return pipeWith(t, hookInputJSON, true) }, time.Minute, ""},
		{"regular file", func() *os.File { return open(t, regular) }, time.Minute, ""},
		{"unknown fields", func() *os.File {
			return pipeWith(t, `{"session_id":"sess-42","source":"startup","new":[1,{"x":null}]}`, true)
		}, time.Minute, ""},
		{"empty", func() *os.File { return pipeWith(t, " \n", true) }, time.Minute, ErrEmptyInput.Error()},
		{"malformed", func() *os.File { return pipeWith(t, "{nope", true) }, time.Minute, "decode hook input: invalid character 'n'"},
		{"wrong type", func() *os.File { return pipeWith(t, `{"session_id":42}`, true) }, time.Minute, "decode hook input: json: cannot unmarshal number"},
		{"silent", func() *os.File { return pipeWith(t, "", false) }, silence, "no hook input within 50ms"},
		{"partly silent", func() *os.File { return pipeWith(t, `{"session_id":`, false) }, silence, "no hook input within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadInputWithin(tt.file(), tt.timeout)
			if tt.wantErr == "" && (err != nil || got.SessionID != "sess-42" || got.Source != "startup") {
				t.Errorf("got %+v, %v", got, err)
			}
			if tt.wantErr != "" && !strings.Contains(errString(err), tt.wantErr) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			var silent *SilentError
			if errors.As(err, &silent) != strings.Contains(tt.name, "silent") {
				t.Errorf("error %v: silent %v", err, silent)
			}
		})
	}
}

// TestReadInputWithinSlowWriter: input written in pieces within the
// timeout is read whole.
func TestReadInputWithinSlowWriter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		defer w.Close()
		for _, part := range []string{hookInputJSON[:10], hookInputJSON[10:40], hookInputJSON[40:]} {
			time.Sleep(5 * time.Millisecond)
			if _, err := w.WriteString(part); err != nil {
				return
			}
		}
	}()
	in, err := ReadInputWithin(r, 10*time.Second)
	if err != nil || in.SessionID != "sess-42" || in.Source != "startup" {
		t.Errorf("got %+v, %v", in, err)
	}
}

// TestReadInputWithinClosedFile: a closed file gives the read error any
// reader gives, not a silence.
func TestReadInputWithinClosedFile(t *testing.T) {
	f := pipeWith(t, hookInputJSON, true)
	f.Close()
	_, err := ReadInputWithin(f, time.Minute)
	_, want := ReadInput(f)
	if err == nil || errString(err) != errString(want) {
		t.Errorf("closed file: %v, want %v", err, want)
	}
}

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
