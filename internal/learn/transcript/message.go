package transcript

import (
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// message handles one user or assistant message of the chain key.
func (s *scanner) message(key, typ string, msg val, sidechain bool) error {
	t := &s.t
	if !t.isObject(msg) {
		s.stats.Skipped++
		return nil
	}
	role := t.str(t.field(msg, "role"))
	if role == "" {
		role = typ
	}
	content := t.field(msg, "content")
	c := s.chain(key)
	switch role {
	case "assistant":
		return s.assistant(c, t.str(t.field(msg, "id")), content, sidechain)
	case "user":
		return s.user(c, content, sidechain)
	}
	s.stats.Skipped++
	return nil
}

// assistant merges one assistant line into the chain's open turn (same
// message id) or starts a new turn. id points into the line.
func (s *scanner) assistant(c *chain, id string, content val, sidechain bool) error {
	if c.open == nil || id == "" || c.open.MessageID != id {
		if id != "" && c.seen.has(id) {
			s.stats.Duplicates++
			return nil
		}
		if err := s.flush(c); err != nil {
			return err
		}
		c.turn = learn.Turn{Role: learn.Assistant, MessageID: strings.Clone(id), Sidechain: sidechain, Cwd: s.cwd}
		c.open = &c.turn
	}
	t := &s.t
	if t.isString(content) {
		s.addText(c, strings.TrimSpace(t.str(content)))
		return nil
	}
	t.elements(content, func(b val) bool {
		switch t.str(t.field(b, "type")) {
		case "text":
			s.addText(c, strings.TrimSpace(t.text(t.field(b, "text"))))
		case "tool_use":
			s.addToolUse(c, b)
		}
		return true
	})
	return nil
}

// addText appends a text block to the open turn unless it is empty or a
// repeat.
func (s *scanner) addText(c *chain, text string) {
	if text == "" {
		return
	}
	s.sig = append(append(s.sig[:0], "t\x00"...), text...)
	sig, ok := s.fresh(c)
	if !ok {
		return
	}
	text = sig[2:] // owned
	if t := c.open; t.Content == "" {
		t.Content = text
	} else {
		t.Content += "\n" + text
	}
}

// addToolUse appends the tool_use block b to the open turn unless it is a
// repeat.
func (s *scanner) addToolUse(c *chain, b val) {
	t := &s.t
	id, name := t.str(t.field(b, "id")), t.text(t.field(b, "name"))
	input := truncateBytes(t.raw(t.field(b, "input")), DefaultMaxInputBytes)
	if input == "" {
		input = "{}"
	}
	s.sig = append(append(s.sig[:0], "u\x00"...), id...)
	s.sig = append(append(s.sig, 0), name...)
	s.sig = append(append(s.sig, 0), input...)
	sig, ok := s.fresh(c)
	if !ok {
		return
	}
	sig = sig[2:] // owned: the fields are cut from it
	c.open.ToolUse = append(c.open.ToolUse, learn.ToolUse{
		ID:    sig[:len(id)],
		Name:  sig[len(id)+1 : len(id)+1+len(name)],
		Input: sig[len(sig)-len(input):],
	})
}

// fresh records the block signature s.sig for the open turn and returns
// it as an owned string when it is new; repeats count as streaming
// duplicates.
func (s *scanner) fresh(c *chain) (string, bool) {
	if c.sigs.has(s.sig) {
		s.stats.Duplicates++
		return "", false
	}
	sig := string(s.sig)
	c.sigs.add(sig)
	return sig, true
}

// user handles a user line: tool results go to the open assistant turn,
// the reason typed when refusing a tool call becomes a user turn (see
// [scanner.refusal]), and remaining text (after cleaning) becomes a user
// turn; the first user turn after an interruption or refusal carries it.
func (s *scanner) user(c *chain, content val, sidechain bool) error {
	t := &s.t
	texts, reasons := s.texts[:0], s.reasons[:0]
	if t.isString(content) {
		texts = append(texts, t.str(content))
	} else {
		t.elements(content, func(b val) bool {
			switch t.str(t.field(b, "type")) {
			case "text":
				texts = append(texts, t.text(t.field(b, "text")))
			case "tool_result":
				if r := s.refusal(c, b); r != "" {
					reasons = append(reasons, r)
				}
				s.toolResult(c, b)
			}
			return true
		})
	}
	s.texts = texts
	joined := strings.Join(texts, "\n")
	c.interruption(joined)
	if text := Clean(joined); text != "" {
		reasons = append(reasons, text)
	}
	s.reasons = reasons
	for _, text := range reasons { // a refusal's reason is the user's words: a turn of its own
		if err := s.flush(c); err != nil {
			return err
		}
		t := learn.Turn{Role: learn.User, Content: strings.Clone(text), Sidechain: sidechain, Cwd: s.cwd}
		c.mark(&t)
		if err := s.emit(t); err != nil {
			return err
		}
	}
	return nil
}

// toolResult attaches a shortened tool result to the open assistant turn.
// Results with no open turn to attach to are dropped.
func (s *scanner) toolResult(c *chain, b val) {
	if c.open == nil {
		return
	}
	t := &s.t
	budget := s.maxResult*8 + 512 // room for wrappers stripped before the cut
	var text string
	switch content := t.rawField(b, "content"); {
	case content.start == content.end:
	case t.isString(content):
		raw := t.raw(content)
		if short, ok := asciiResult(s.result[:0], raw, budget, s.maxResult); ok {
			s.result = short
			s.attach(c, b, string(short))
			return
		}
		if short, ok := shortResult(raw, budget, s.maxResult); ok {
			s.attach(c, b, strings.Clone(short))
			return
		}
		text = prefixString(raw, budget)
	case t.line[content.start] == '[':
		var parts []string
		size := -1 // of the parts joined with spaces
		t.elements(content, func(blk val) bool {
			if t.str(t.field(blk, "type")) == "text" {
				part := prefixString(t.raw(t.rawField(blk, "text")), budget)
				parts = append(parts, part)
				size += len(part) + 1
			}
			return size < budget
		})
		text = strings.Join(parts, " ")
	}
	s.attach(c, b, strings.Clone(truncate(Clean(text), s.maxResult)))
}

// attach appends the tool result block b, its text cut to content (owned),
// to the chain's open assistant turn.
func (s *scanner) attach(c *chain, b val, content string) {
	t := &s.t
	c.open.ToolResults = append(c.open.ToolResults, learn.ToolResult{
		ToolUseID: strings.Clone(t.str(t.field(b, "tool_use_id"))),
		Content:   content,
		IsError:   t.isTrue(t.field(b, "is_error")),
	})
}

// prefixString decodes at most about n bytes of the JSON string literal raw
// (valid JSON), so a multi-megabyte tool result costs no more than a short
// one. It gives what gjson gives for raw cut after its first n bytes, at
// the end of an escape, and closed with a quote.
func prefixString(raw string, n int) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if len(raw) <= n+2 {
		return stringBody(raw[1 : len(raw)-1])
	}
	i := 1
	for i < n {
		if raw[i] == '\\' {
			i += 2
			if i-1 < len(raw) && raw[i-1] == 'u' {
				i += 4
			}
			continue
		}
		i++
	}
	if i > len(raw)-1 {
		return stringBody(raw[1 : len(raw)-1])
	}
	return stringBody(raw[1:i])
}

// stringBody is the decoded text of body, the inside of a JSON string
// literal, as gjson decodes it: itself when it has no escape.
func stringBody(body string) string {
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	return unescape(body)
}
