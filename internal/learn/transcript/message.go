package transcript

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// message handles one user or assistant message of the chain key.
func (s *scanner) message(key, typ string, msg gjson.Result, sidechain bool) error {
	if !msg.IsObject() {
		s.stats.Skipped++
		return nil
	}
	role := msg.Get("role").Str
	if role == "" {
		role = typ
	}
	content := msg.Get("content")
	c := s.chain(key)
	switch role {
	case "assistant":
		return s.assistant(c, strings.Clone(msg.Get("id").Str), content, sidechain)
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
		c.open = &learn.Turn{Role: learn.Assistant, MessageID: id, Sidechain: sidechain, Cwd: strings.Clone(s.cwd), GitBranch: strings.Clone(s.branch)}
	}
	t := c.open
	if content.Type == gjson.String {
		s.addText(c, t, strings.TrimSpace(content.String()))
		return nil
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			s.addText(c, t, strings.TrimSpace(b.Get("text").String()))
		case "tool_use":
			u := learn.ToolUse{
				ID:    strings.Clone(b.Get("id").Str),
				Name:  strings.Clone(b.Get("name").String()),
				Input: strings.Clone(truncateBytes(b.Get("input").Raw, DefaultMaxInputBytes)),
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
		content.ForEach(func(_, b gjson.Result) bool {
			var f [len(blockKeys)]string
			rawFields(b.Raw, blockKeys[:], f[:])
			switch f[0] {
			case `"text"`:
				texts = append(texts, gjson.Parse(f[1]).String())
			case `"tool_result"`:
				r := resultBlock{toolUseID: gjson.Parse(f[3]).Str, isError: f[4] == "true", content: f[2]}
				if reason := s.refusal(c, r); reason != "" {
					reasons = append(reasons, reason)
				}
				s.toolResult(c, r)
			}
			return true
		})
	}
	joined := strings.Join(texts, "\n")
	if IsCompactionSummary(joined) {
		s.stats.Compaction++
		return nil
	}
	c.interruption(joined)
	if text := Clean(joined); text != "" {
		reasons = append(reasons, text)
	} else if len(texts) > 0 && strings.Contains(joined, "<") {
		s.stats.Commands++
	}
	for _, text := range reasons { // a refusal's reason is the user's words: a turn of its own
		if err := s.flush(c); err != nil {
			return err
		}
		t := learn.Turn{Role: learn.User, Content: strings.Clone(text), Sidechain: sidechain, Cwd: strings.Clone(s.cwd), GitBranch: strings.Clone(s.branch)}
		c.mark(&t)
		if err := s.emit(t); err != nil {
			return err
		}
	}
	return nil
}

// blockKeys are the members of a user line's content block the reader
// looks at, read in one pass: type, text, content, tool_use_id, is_error.
var blockKeys = [...]string{"type", "text", "content", "tool_use_id", "is_error"}

// resultBlock is a tool_result block: its call's id, is_error and its
// content as raw JSON (a string or an array of blocks).
type resultBlock struct {
	toolUseID string
	isError   bool
	content   string
}

// toolResult attaches a shortened tool result to the open assistant turn.
// Results with no open turn to attach to are dropped.
func (s *scanner) toolResult(c *chain, b resultBlock) {
	if c.open == nil {
		return
	}
	budget := s.maxResult*8 + 512 // room for wrappers stripped before the cut
	var text string
	switch raw := b.content; {
	case raw == "":
	case raw[0] == '"':
		text = s.resultPrefix(raw, budget)
	case raw[0] == '[':
		v := gjson.Parse(raw)
		var parts []string
		v.ForEach(func(_, blk gjson.Result) bool {
			if blk.Get("type").Str == "text" {
				parts = append(parts, prefixString(rawField(blk.Raw, "text"), budget))
			}
			return len(strings.Join(parts, " ")) < budget
		})
		text = strings.Join(parts, " ")
	}
	c.open.ToolResults = append(c.open.ToolResults, learn.ToolResult{
		ToolUseID: strings.Clone(b.toolUseID),
		Content:   strings.Clone(truncate(Clean(text), s.maxResult)),
		IsError:   b.isError,
	})
}

// resultPrefix decodes enough of the tool result string raw to give its
// first maxResult characters once cleaned: a short prefix when that one,
// cleaned, is comfortably longer than them (what [Clean] does to text past
// the cut, a wrapper or marker cut in two included, cannot reach back that
// far), else up to budget bytes. Most results are plain output, so most
// cost an eighth of the budget.
func (s *scanner) resultPrefix(raw string, budget int) string {
	short := s.maxResult*2 + 128
	if short < budget && len(raw) > short+2 {
		text := prefixString(raw, short)
		if utf8.RuneCountInString(Clean(text)) >= s.maxResult+64 {
			return text
		}
	}
	return prefixString(raw, budget)
}

// prefixString decodes at most about n bytes of the JSON string literal raw,
// so a multi-megabyte tool result costs no more than a short one.
func prefixString(raw string, n int) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if len(raw) <= n+2 {
		return gjson.Parse(raw).String()
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
		return gjson.Parse(raw).String()
	}
	return gjson.Parse(raw[:i] + `"`).String()
}
