package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// answerCheck checks the answers of one session's calls, cheaply when
// they repeat: an answer body equal, byte for byte, to the last answer
// checked in full except for the id's digits, which are the call's id, is
// the same right answer to this call; any other answer is decoded and
// checked in full ([session.checkAnswer]: the response to this id, not a
// JSON-RPC or tool error, with the seeded buffer when there is one) and,
// when right, becomes the reference. paige_get_buffer answers the same
// bytes while the buffer does not change, so a run decodes a handful of
// answers and compares the rest.
type answerCheck struct {
	// prefix and suffix are the reference body around its id's digits;
	// both nil until an answer has been checked in full.
	prefix, suffix []byte
	id             []byte // scratch for the call's id in decimal
	decoded        int    // answers checked in full
}

// check returns nil if body, the answer of type ctype to the call with
// id, is right.
func (a *answerCheck) check(s *session, ctype, body []byte, id int64) error {
	if a.same(body, id) {
		return nil
	}
	a.decoded++
	if err := s.checkAnswer(string(ctype), body, id); err != nil {
		return err
	}
	a.remember(s, ctype, body, id)
	return nil
}

// same reports whether body is the reference with id's digits.
func (a *answerCheck) same(body []byte, id int64) bool {
	if a.prefix == nil || !bytes.HasPrefix(body, a.prefix) || !bytes.HasSuffix(body, a.suffix) {
		return false
	}
	a.id = strconv.AppendInt(a.id[:0], id, 10)
	return len(body) == len(a.prefix)+len(a.id)+len(a.suffix) && bytes.Equal(body[len(a.prefix):len(body)-len(a.suffix)], a.id)
}

// remember makes body, a right answer to the call with id, the reference
// when its id can be told apart: `"id":<id>` occurs exactly once, and the
// body with other digits there is, decoded, the response to that other
// id. Otherwise the reference is dropped and the next answers are all
// checked in full.
func (a *answerCheck) remember(s *session, ctype, body []byte, id int64) {
	a.prefix, a.suffix = nil, nil
	needle := strconv.AppendInt([]byte(`"id":`), id, 10)
	at, n := -1, 0
	for i := 0; ; {
		j := bytes.Index(body[i:], needle)
		if j < 0 {
			break
		}
		i += j + len(needle)
		if i == len(body) || body[i] < '0' || body[i] > '9' {
			at, n = i-len(needle), n+1
		}
	}
	if n != 1 {
		return
	}
	prefix, suffix := body[:at+len(`"id":`)], body[at+len(needle):]
	other := id + 1
	probe := strconv.AppendInt(append([]byte(nil), prefix...), other, 10)
	if _, err := readResponse(string(ctype), bytes.NewReader(append(probe, suffix...)), other); err != nil {
		return
	}
	a.prefix, a.suffix = bytes.Clone(prefix), bytes.Clone(suffix)
}

// checkAnswer decodes an answer body of type ctype to the call with id
// and checks it: the JSON-RPC response to id, with a result that
// [session.checkResult] accepts.
func (s *session) checkAnswer(ctype string, body []byte, id int64) error {
	raw, err := readResponse(ctype, bytes.NewReader(body), id)
	if err != nil {
		return err
	}
	return s.checkResult(raw)
}

// checkResult accepts a CallToolResult with content and without isError
// and, once a buffer is seeded, with structuredContent (errNoBuffer) whose
// content is the seeded text.
func (s *session) checkResult(raw json.RawMessage) error {
	structured, err := readToolResult(raw)
	if err != nil {
		return err
	}
	if s.wantStructured && !structured {
		return errNoBuffer
	}
	if s.wantContent == "" {
		return nil
	}
	var res struct {
		StructuredContent struct {
			Content *string `json:"content"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.StructuredContent.Content == nil {
		return fmt.Errorf("tools/call: structuredContent without content: %.200s", raw)
	}
	if got := *res.StructuredContent.Content; got != s.wantContent {
		return fmt.Errorf("tools/call: buffer content %.60q (%d bytes), want the seeded %.60q (%d bytes)",
			got, len(got), s.wantContent, len(s.wantContent))
	}
	return nil
}
