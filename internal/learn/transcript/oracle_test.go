package transcript

import (
	"sort"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// The oracle of the reader's tests: the reader as it was before the tape
// (commit eaeb8d8), kept to check that the tape changes no answer. It
// validates with gjson.ValidBytes, finds members by scanning (the old
// walkers with nothing recorded, which FuzzFields checked against gjson)
// and decodes every tool result the long way (prefixString, Clean,
// truncate), which the fast paths (asciiResult, shortResult) are fuzzed
// against.

type oldScanner struct {
	include   bool
	maxResult int
	emit      func(learn.Turn) error
	chains    map[string]*oldChain
	stats     Stats
	cwd       string
}

// oldChain is chain as it was: its block signatures in a map.
type oldChain struct {
	open        *learn.Turn
	sigs        map[string]struct{}
	seen        recentIDs
	interrupted bool
	refused     *learn.ToolUse
}

func (c *oldChain) interruption(text string) {
	if !strings.Contains(text, interruptMark) {
		return
	}
	c.interrupted = true
	if c.refused == nil && c.open != nil && len(c.open.ToolUse) > 0 {
		u := c.open.ToolUse[len(c.open.ToolUse)-1]
		c.refused = &u
	}
}

func (c *oldChain) toolUse(id string) *learn.ToolUse {
	if c.open == nil {
		return nil
	}
	for _, u := range c.open.ToolUse {
		if u.ID == id {
			return &u
		}
	}
	return nil
}

func (c *oldChain) mark(t *learn.Turn) {
	t.Interrupted, t.Refused = c.interrupted, c.refused
	c.interrupted, c.refused = false, nil
}

type oldRecord struct {
	typ, parentToolUse, agentID string
	cwd                         string
	isMeta, isSidechain         bool
	message, data               gjson.Result
}

// oldRead reads in with the oracle.
func oldRead(in string, opts *Options) ([]learn.Turn, Stats, error) {
	var turns []learn.Turn
	s := newOldScanner(opts, func(t learn.Turn) error {
		turns = append(turns, t)
		return nil
	})
	for _, line := range strings.SplitAfter(in, "\n") {
		if err := s.line([]byte(line)); err != nil {
			return turns, s.stats, err
		}
	}
	return turns, s.stats, s.flushAll()
}

func newOldScanner(opts *Options, emit func(learn.Turn) error) *oldScanner {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxResultChars <= 0 {
		o.MaxResultChars = DefaultMaxResultChars
	}
	return &oldScanner{include: o.IncludeSidechain, maxResult: o.MaxResultChars, emit: emit, chains: map[string]*oldChain{}}
}

func (s *oldScanner) chain(key string) *oldChain {
	c := s.chains[key]
	if c == nil {
		c = &oldChain{sigs: map[string]struct{}{}}
		s.chains[key] = c
	}
	return c
}

// line handles one raw line. The bytes are only valid during the call: every
// string kept beyond it is cloned.
func (s *oldScanner) line(b []byte) error {
	b = trimSpace(b)
	if len(b) == 0 {
		return nil
	}
	s.stats.Lines++
	if !gjson.ValidBytes(b) || b[0] != '{' {
		s.stats.Malformed++
		return nil
	}
	raw := unsafe.String(&b[0], len(b))
	var rec oldRecord
	oldMembers(raw, func(k, v string) bool { // a repeated key: the last one counts, as with gjson's ForEach
		switch k {
		case "type":
			rec.typ = strValue(v)
		case "isMeta":
			rec.isMeta = v == "true"
		case "isSidechain":
			rec.isSidechain = v == "true"
		case "message":
			rec.message = gjson.Parse(v)
		case "data":
			rec.data = gjson.Parse(v)
		case "parentToolUseID":
			rec.parentToolUse = strValue(v)
		case "agentId":
			rec.agentID = strValue(v)
		case "cwd":
			rec.cwd = strValue(v)
		}
		return true
	})
	switch rec.typ {
	case "user", "assistant":
		if rec.isMeta {
			s.stats.Skipped++
			return nil
		}
		key := ""
		if rec.isSidechain {
			if !s.include {
				s.stats.Sidechain++
				return nil
			}
			key = "sidechain:" + rec.agentID
		}
		if rec.cwd != s.cwd { // owned: rec.cwd points into the line, and nested lines reuse s.cwd
			s.cwd = strings.Clone(rec.cwd)
		}
		return s.message(key, rec.typ, rec.message, rec.isSidechain)
	case "progress":
		if s.include && oldGetField(rec.data.Raw, "type").Str == "agent_progress" {
			return s.nested(rec)
		}
		if oldGetField(rec.data.Raw, "type").Str == "agent_progress" {
			s.stats.Sidechain++
			return nil
		}
	}
	s.stats.Skipped++
	return nil
}

// nested reads a subagent message carried inside an agent_progress record.
func (s *oldScanner) nested(rec oldRecord) error {
	m := oldGetField(rec.data.Raw, "message")
	typ := oldGetField(m.Raw, "type").Str
	if (typ != "user" && typ != "assistant") || oldGetField(m.Raw, "isMeta").Type == gjson.True {
		s.stats.Skipped++
		return nil
	}
	return s.message("agent:"+rec.parentToolUse, typ, oldGetField(m.Raw, "message"), true)
}

// flushAll emits every chain's open turn, the main chain first.
func (s *oldScanner) flushAll() error {
	keys := make([]string, 0, len(s.chains))
	for k := range s.chains {
		keys = append(keys, k)
	}
	sort.Strings(keys) // "" (main) sorts first
	for _, k := range keys {
		if err := s.flush(s.chains[k]); err != nil {
			return err
		}
	}
	return nil
}

// flush emits c's open assistant turn, if any, and remembers its id.
func (s *oldScanner) flush(c *oldChain) error {
	t := c.open
	if t == nil {
		return nil
	}
	c.open = nil
	clear(c.sigs)
	if t.MessageID != "" && !c.seen.has(t.MessageID) {
		c.seen.add(t.MessageID)
	}
	if t.Content == "" && len(t.ToolUse) == 0 {
		return nil
	}
	return s.emit(*t)
}

// message handles one user or assistant message of the chain key.
func (s *oldScanner) message(key, typ string, msg gjson.Result, sidechain bool) error {
	if !msg.IsObject() {
		s.stats.Skipped++
		return nil
	}
	role := oldGetField(msg.Raw, "role").Str
	if role == "" {
		role = typ
	}
	content := oldGetField(msg.Raw, "content")
	c := s.chain(key)
	switch role {
	case "assistant":
		return s.assistant(c, strings.Clone(oldGetField(msg.Raw, "id").Str), content, sidechain)
	case "user":
		return s.user(c, content, sidechain)
	}
	s.stats.Skipped++
	return nil
}

// assistant merges one assistant line into the chain's open turn (same
// message id) or starts a new turn.
func (s *oldScanner) assistant(c *oldChain, id string, content gjson.Result, sidechain bool) error {
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
	oldElements(content.Raw, func(b gjson.Result) bool {
		switch oldGetField(b.Raw, "type").Str {
		case "text":
			s.addText(c, t, strings.TrimSpace(oldGetField(b.Raw, "text").String()))
		case "tool_use":
			u := learn.ToolUse{
				ID:    strings.Clone(oldGetField(b.Raw, "id").Str),
				Name:  strings.Clone(oldGetField(b.Raw, "name").String()),
				Input: strings.Clone(truncateBytes(oldGetField(b.Raw, "input").Raw, DefaultMaxInputBytes)),
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
func (s *oldScanner) addText(c *oldChain, t *learn.Turn, text string) {
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
func (s *oldScanner) fresh(c *oldChain, sig string) bool {
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
func (s *oldScanner) user(c *oldChain, content gjson.Result, sidechain bool) error {
	var texts, reasons []string
	if content.Type == gjson.String {
		texts = append(texts, content.String())
	} else {
		oldElements(content.Raw, func(b gjson.Result) bool {
			switch oldGetField(b.Raw, "type").Str {
			case "text":
				texts = append(texts, oldGetField(b.Raw, "text").String())
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
func (s *oldScanner) toolResult(c *oldChain, b gjson.Result) {
	if c.open == nil {
		return
	}
	budget := s.maxResult*8 + 512 // room for wrappers stripped before the cut
	var text string
	switch raw := oldRawField(b.Raw, "content"); {
	case raw == "":
	case raw[0] == '"':
		text = prefixString(raw, budget)
	case raw[0] == '[':
		v := gjson.Parse(raw)
		var parts []string
		oldElements(v.Raw, func(blk gjson.Result) bool {
			if oldGetField(blk.Raw, "type").Str == "text" {
				parts = append(parts, prefixString(oldRawField(blk.Raw, "text"), budget))
			}
			return len(strings.Join(parts, " ")) < budget
		})
		text = strings.Join(parts, " ")
	}
	s.attach(c, b, truncate(Clean(text), s.maxResult))
}

// attach appends the tool result block b, its text cut to content, to the
// chain's open assistant turn.
func (s *oldScanner) attach(c *oldChain, b gjson.Result, content string) {
	c.open.ToolResults = append(c.open.ToolResults, learn.ToolResult{
		ToolUseID: strings.Clone(oldGetField(b.Raw, "tool_use_id").Str),
		Content:   strings.Clone(content),
		IsError:   oldGetField(b.Raw, "is_error").Type == gjson.True,
	})
}

// refusal handles a tool_result block b that refuses a tool call: it marks
// the chain so the next user turn is [learn.Turn.Interrupted], with the
// refused call as its context, and returns the reason the user typed, if
// any ("" otherwise).
func (s *oldScanner) refusal(c *oldChain, b gjson.Result) string {
	if oldGetField(b.Raw, "is_error").Type != gjson.True {
		return ""
	}
	raw := oldRawField(b.Raw, "content")
	if raw == "" {
		return ""
	}
	var text string
	switch raw[0] {
	case '"':
		text = prefixString(raw, maxReasonBytes)
	case '[':
		text = gjson.Get(raw, "0.text").String()
		if len(text) > maxReasonBytes {
			text = text[:maxReasonBytes]
		}
	}
	if !strings.HasPrefix(text, rejectedPrefix) {
		return ""
	}
	c.interrupted = true
	c.refused = c.toolUse(oldGetField(b.Raw, "tool_use_id").Str)
	_, reason, ok := strings.Cut(text, reasonMarker)
	if !ok {
		return ""
	}
	if i := strings.Index(reason, memoryNote); i >= 0 {
		reason = reason[:i]
	}
	reason = strings.TrimSpace(reason)
	if strings.HasPrefix(reason, clarifyReason) {
		return ""
	}
	return reason
}
