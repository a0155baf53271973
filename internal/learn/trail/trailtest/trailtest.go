// Package trailtest writes Claude Code transcripts (JSONL, in the format
// Claude Code 2.1 writes: one line per content block, tool results in user
// lines with toolUseResult, cwd and sessionId on every line) for tests of
// learning from tool trails.
package trailtest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Session builds one transcript. The zero value is not usable; use New.
type Session struct {
	id, cwd string
	n       int
	lines   []string
	parent  string
}

// New starts a transcript of session id whose lines carry cwd.
func New(id, cwd string) *Session { return &Session{id: id, cwd: cwd} }

// Cd changes the cwd of the lines that follow.
func (s *Session) Cd(cwd string) *Session { s.cwd = cwd; return s }

func (s *Session) add(m map[string]any) {
	s.n++
	uuid := fmt.Sprintf("%s-%08d", s.id, s.n)
	base := map[string]any{"parentUuid": nilIfEmpty(s.parent), "isSidechain": false, "userType": "external",
		"cwd": s.cwd, "sessionId": s.id, "version": "2.1.38", "gitBranch": "main",
		"uuid": uuid, "timestamp": fmt.Sprintf("2026-02-10T21:%02d:%02d.000Z", s.n/60%60, s.n%60)}
	for k, v := range m {
		base[k] = v
	}
	b, err := json.Marshal(base)
	if err != nil {
		panic(err) // only values built here
	}
	s.lines = append(s.lines, string(b))
	s.parent = uuid
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// User adds a user message.
func (s *Session) User(text string) *Session {
	s.add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	return s
}

// Say adds an assistant text message.
func (s *Session) Say(text string) *Session {
	s.add(map[string]any{"type": "assistant", "requestId": fmt.Sprintf("req_%d", s.n), "message": map[string]any{
		"model": "claude-opus-4-6", "id": fmt.Sprintf("msg_%s_%d", s.id, s.n), "type": "message", "role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": text}}}})
	return s
}

// Tool adds an assistant tool_use of tool with input, and the user line
// with its result: out as the content, isError as is_error.
func (s *Session) Tool(tool string, input map[string]any, out string, isError bool) *Session {
	id := fmt.Sprintf("toolu_%s_%d", s.id, s.n)
	s.add(map[string]any{"type": "assistant", "requestId": fmt.Sprintf("req_%d", s.n), "message": map[string]any{
		"model": "claude-opus-4-6", "id": fmt.Sprintf("msg_%s_%d", s.id, s.n), "type": "message", "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}}}})
	s.add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"tool_use_id": id, "type": "tool_result", "content": out, "is_error": isError}}},
		"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}})
	return s
}

// Bash adds a Bash call of command with its output; exit is its status
// (non-zero results are errors, written "Exit code N" as Claude Code does).
func (s *Session) Bash(command, out string, exit int) *Session {
	if exit != 0 {
		out = fmt.Sprintf("Exit code %d\n%s", exit, out)
	}
	return s.Tool("Bash", map[string]any{"command": command, "description": "run " + strings.Fields(command + " x")[0]}, out, exit != 0)
}

// Rejected adds a Bash call the user rejected.
func (s *Session) Rejected(command string) *Session {
	return s.Tool("Bash", map[string]any{"command": command}, "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", true)
}

// Edit adds a successful Edit of file.
func (s *Session) Edit(file string) *Session {
	return s.Tool("Edit", map[string]any{"file_path": file, "old_string": "a", "new_string": "b"},
		"The file "+file+" has been updated successfully.", false)
}

// Read adds a successful Read of file.
func (s *Session) Read(file string) *Session {
	return s.Tool("Read", map[string]any{"file_path": file}, "     1→content", false)
}

// String returns the transcript, one JSON line each.
func (s *Session) String() string { return strings.Join(s.lines, "\n") + "\n" }
