//go:build unix

package hook

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pipeWith returns the read end of a pipe holding data, its write end
// closed when closeWriter is set (kept open until the test ends otherwise).
// The pipe is blocking, as a process's stdin is (os.Pipe's are not).
func pipeWith(t *testing.T, data string, closeWriter bool) *os.File {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "writer")
	t.Cleanup(func() { r.Close(); w.Close() })
	if _, err := w.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if closeWriter {
		w.Close()
	}
	return r
}

// readerOnly hides every method of a file but Read, so that
// ReadInputWithin takes its path for any reader.
type readerOnly struct{ f *os.File }

func (r readerOnly) Read(p []byte) (int, error) { return r.f.Read(p) }

// TestReadInputWithinFile: a file (stdin) is read with poll(2) bounding the
// wait, with the same answers as any other reader: a pipe or a regular
// file holding the input, an empty one, malformed input, and a pipe whose
// writer stays silent (or writes part of the input and then stays silent).
func TestReadInputWithinFile(t *testing.T) {
	regular := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(regular, []byte(hookInputJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	const timeout = 50 * time.Millisecond
	tests := []struct {
		name    string
		file    func() *os.File
		reader  func() *os.File // the same input for the any-reader path
		wantErr string
	}{
		{"pipe", func() *os.File { return pipeWith(t, hookInputJSON, true) }, func() *os.File { return pipeWith(t, hookInputJSON, true) }, ""},
		{"regular file", func() *os.File { return open(t, regular) }, func() *os.File { return open(t, regular) }, ""},
		{"empty", func() *os.File { return pipeWith(t, "", true) }, func() *os.File { return pipeWith(t, "", true) }, ErrEmptyInput.Error()},
		{"malformed", func() *os.File { return pipeWith(t, "{nope", true) }, func() *os.File { return pipeWith(t, "{nope", true) }, "decode hook input: invalid character 'n'"},
		{"silent", func() *os.File { return pipeWith(t, "", false) }, func() *os.File { return pipeWith(t, "", false) }, "no hook input within 50ms"},
		{"partly silent", func() *os.File { return pipeWith(t, `{"session_id":`, false) }, func() *os.File { return pipeWith(t, `{"session_id":`, false) }, "no hook input within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadInputWithin(tt.file(), timeout)
			want, wantErr := ReadInputWithin(readerOnly{tt.reader()}, timeout)
			if errString(err) != errString(wantErr) || got.SessionID != want.SessionID || got.Source != want.Source {
				t.Errorf("file: %+v, %v; any reader: %+v, %v", got, err, want, wantErr)
			}
			if tt.wantErr == "" && (err != nil || got.SessionID != "sess-42") {
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
	_, err := ReadInputWithin(f, 50*time.Millisecond)
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
