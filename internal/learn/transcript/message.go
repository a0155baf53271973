package transcript

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// message handles one user or assistant message of the chain key.
func (s *scanner) message(key, typ string, msg gjson.Result, sidechain bool) error {
	if !msg.IsObject() {
		s.stats.Skipped++
		return nil
	}
	role := s.j.getField(msg.Raw, "role").Str
	if role == "" {
		role = typ
	}
	content := s.j.getField(msg.Raw, "content")
	c := s.chain(key)
	switch role {
	case "assistant":
		return s.assistant(c, strings.Clone(s.j.getField(msg.Raw, "id").Str), content, sidechain)
	case "user":
		return s.user(c, content, sidechain)
	}
	s.stats.Skipped++
	return nil
}

// assistant merges one assistant line into the chain's open turn (same
// message id) or starts a new turn.
func (s *scanner) assistant(c *chain, id string, content gjson.Result, sidechain bool) error {
	if c.open == nil || id == "" || c.open.MessageID != id {
		if id != "" && c.seen.has(id) {
			s.stats.Duplicates++
			return nil
		}
		if err := s.flush(c); err != nil {
			return err
		}
		c.open = &learn.Turn{Role: learn.Assistant, MessageID: id, Sidechain: sidechain, Cwd: strings.Clone(s.cwd)}
	}
	t := c.open
	if content.Type == gjson.String {
		s.addText(c, t, strings.TrimSpace(content.String()))
		return nil
	}
	s.j.elements(content.Raw, func(b gjson.Result) bool {
		switch s.j.getField(b.Raw, "type").Str {
		case "text":
			s.addText(c, t, strings.TrimSpace(s.j.getField(b.Raw, "text").String()))
		case "tool_use":
			u := learn.ToolUse{
				ID:    strings.Clone(s.j.getField(b.Raw, "id").Str),
				Name:  strings.Clone(s.j.getField(b.Raw, "name").String()),
				Input: strings.Clone(truncateBytes(s.j.getField(b.Raw, "input").Raw, DefaultMaxInputBytes)),
			}
			if u.Input == "" {
				u.Input = "{}"
			}
			if s.fresh(c, "u\x00"+u.ID+"\x00"+u.Name+"\x00"+u.Input) {
				t.ToolUse = append(t.ToolUse, u)
			}
		}
		return true
	})
	return nil
}

// addText appends a text block to t unless it is empty or a repeat.
func (s *scanner) addText(c *chain, t *learn.Turn, text string) {
	if text == "" || !s.fresh(c, "t\x00"+text) {
		return
	}
	text = strings.Clone(text)
	if t.Content == "" {
		t.Content = text
	} else {
		t.Content += "\n" + text
	}
}

// fresh records the block signature sig for the open turn and reports
// whether it was new; repeats count as streaming duplicates.
func (s *scanner) fresh(c *chain, sig string) bool {
	if _, ok := c.sigs[sig]; ok {
		s.stats.Duplicates++
		return false
	}
	c.sigs[strings.Clone(sig)] = struct{}{}
	return true
}

// user handles a user line: tool results go to the open assistant turn,
// the reason typed when refusing a tool call becomes a user turn (see
// [scanner.refusal]), and remaining text (after cleaning) becomes a user
// turn; the first user turn after an interruption or refusal carries it.
func (s *scanner) user(c *chain, content gjson.Result, sidechain bool) error {
	var texts, reasons []string
	if content.Type == gjson.String {
		texts = append(texts, content.String())
	} else {
		s.j.elements(content.Raw, func(b gjson.Result) bool {
			switch s.j.getField(b.Raw, "type").Str {
			case "text":
				texts = append(texts, s.j.getField(b.Raw, "text").String())
			case "tool_result":
				if r := s.refusal(c, b); r != "" {
					reasons = append(reasons, r)
				}
				s.toolResult(c, b)
			}
			return true
		})
	}
	joined := strings.Join(texts, "\n")
	c.interruption(joined)
	if text := Clean(joined); text != "" {
		reasons = append(reasons, text)
	}
	for _, text := range reasons { // a refusal's reason is the user's words: a turn of its own
		if err := s.flush(c); err != nil {
			return err
		}
		t := learn.Turn{Role: learn.User, Content: strings.Clone(text), Sidechain: sidechain, Cwd: strings.Clone(s.cwd)}
		c.mark(&t)
		if err := s.emit(t); err != nil {
			return err
		}
	}
	return nil
}

// toolResult attaches a shortened tool result to the open assistant turn.
// Results with no open turn to attach to are dropped.
func (s *scanner) toolResult(c *chain, b gjson.Result) {
	if c.open == nil {
		return
	}
	budget := s.maxResult*8 + 512 // room for wrappers stripped before the cut
	var text string
	switch raw := s.j.rawField(b.Raw, "content"); {
	case raw == "":
	case raw[0] == '"':
		if short, ok := asciiResult(raw, budget, s.maxResult); ok {
			s.attach(c, b, short)
			return
		}
		if short, ok := shortResult(raw, budget, s.maxResult); ok {
			s.attach(c, b, short)
			return
		}
		text = prefixString(raw, budget)
	case raw[0] == '[':
		v := gjson.Parse(raw)
		var parts []string
		s.j.elements(v.Raw, func(blk gjson.Result) bool {
			if s.j.getField(blk.Raw, "type").Str == "text" {
				parts = append(parts, prefixString(s.j.rawField(blk.Raw, "text"), budget))
			}
			return len(strings.Join(parts, " ")) < budget
		})
		text = strings.Join(parts, " ")
	}
	s.attach(c, b, truncate(Clean(text), s.maxResult))
}

// attach appends the tool result block b, its text cut to content, to the
// chain's open assistant turn.
func (s *scanner) attach(c *chain, b gjson.Result, content string) {
	c.open.ToolResults = append(c.open.ToolResults, learn.ToolResult{
		ToolUseID: strings.Clone(s.j.getField(b.Raw, "tool_use_id").Str),
		Content:   strings.Clone(content),
		IsError:   s.j.getField(b.Raw, "is_error").Type == gjson.True,
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
