// Package transcript reads Claude Code session transcripts (JSONL, one
// record per line) into conversational turns.
//
// # What it handles
//
// The reader streams: it holds one line at a time (lines of any length, no
// fixed cap) plus the assistant turn being assembled, never the whole file.
// Real transcripts differ from the plan's fixture, so:
//
//   - an assistant message is written as one line per content block, all
//     sharing message.id: those lines are merged into one turn, and blocks
//     repeated by streaming are dropped (a message id seen again after its
//     turn ended — among the last 256 — is a duplicate and skipped);
//   - progress, system, summary, file-history-snapshot and queue-operation
//     lines, and isMeta lines (hook feedback, skill bodies, caveats), are
//     skipped;
//   - Claude Code's compaction summary (a user line with isCompactSummary,
//     or one opening with "This session is being continued from a previous
//     conversation") is Claude's summary of earlier turns, not the user's
//     words: it is counted in [Stats.Compaction] and adds no turn;
//   - a user line holding only slash-command tags or local command output
//     (<command-name>, <local-command-stdout>…) is counted in
//     [Stats.Commands] and adds no turn;
//   - sidechain (subagent) lines are skipped unless [Options.IncludeSidechain]
//     is set; then top-level isSidechain lines and the subagent messages
//     nested in agent_progress records are read as their own chains;
//   - tool_use blocks become [learn.ToolUse] (input cut to 500 bytes) and
//     tool_result blocks become [learn.ToolResult] on the assistant turn that
//     made the call (content cleaned, cut to 200 characters, is_error kept);
//     a user line that carries only tool results adds no user turn;
//   - harness and IDE wrappers are removed from text (see [Clean]);
//   - a line that is not valid JSON is counted in [Stats.Malformed] and
//     skipped; reading goes on.
package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// Defaults for [Options].
const (
	DefaultMaxResultChars = 200
	DefaultMaxInputBytes  = 500
)

// Options tune reading. A nil *Options means defaults.
type Options struct {
	IncludeSidechain bool // read subagent turns too; default false
	MaxResultChars   int  // tool result length in runes; 0 means DefaultMaxResultChars
}

// Stats count what the reader saw. Lines counts non-blank lines.
type Stats struct {
	Lines      int `json:"lines"`
	Malformed  int `json:"malformed"`
	Skipped    int `json:"skipped"`    // non-conversation records and isMeta lines
	Sidechain  int `json:"sidechain"`  // subagent lines left out
	Duplicates int `json:"duplicates"` // streaming duplicates dropped (lines or blocks)
	Compaction int `json:"compaction"` // compaction summaries left out
	Commands   int `json:"commands"`   // user lines of slash-command tags or command output only
}

// ReadFile reads the transcript at path; see [Read].
func ReadFile(path string, opts *Options) ([]learn.Turn, Stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	return Read(f, opts)
}

// Read collects every turn of the transcript r in order.
func Read(r io.Reader, opts *Options) ([]learn.Turn, Stats, error) {
	var turns []learn.Turn
	st, err := Scan(r, opts, func(t learn.Turn) error {
		turns = append(turns, t)
		return nil
	})
	return turns, st, err
}

// Scan streams the transcript r, calling emit with each turn once it is
// complete, in transcript order (an assistant turn completes when the next
// message begins). Memory use is bounded by [MaxLineBytes] (a longer line
// is cut and closed, see [closeJSON]) and the turn being assembled. Scan stops at the first error from r or emit; malformed
// lines are not errors.
func Scan(r io.Reader, opts *Options, emit func(learn.Turn) error) (Stats, error) {
	s := newScanner(opts, emit)
	br := bufio.NewReaderSize(r, 256<<10)
	var long []byte // reused for lines longer than the reader's buffer
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			cut := false
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				room := MaxLineBytes - len(long) // the rest of an over-long line is dropped
				cut = cut || len(line) > room
				long = append(long, line[:max(0, min(room, len(line)))]...)
			}
			line = long
			if cut {
				line = closeJSON(line)
			}
		}
		if len(line) > 0 {
			if perr := s.line(line); perr != nil {
				return s.stats, perr
			}
		}
		if err == io.EOF {
			return s.stats, s.flushAll()
		}
		if err != nil {
			return s.stats, fmt.Errorf("read transcript: %w", err)
		}
	}
}

// chain is one conversation thread: the main session or one subagent.
type chain struct {
	open *learn.Turn         // assistant turn being assembled
	sigs map[string]struct{} // block signatures already in open
	seen recentIDs           // ids of recently finished assistant turns
	// interrupted and refused are the context of the next user turn: the
	// user stopped the assistant, or refused refused (see refusal.go).
	interrupted bool
	refused     *learn.ToolUse
}

// recentIDs remembers the last len(ring) ids: a streaming duplicate
// follows its original closely, and a bounded set keeps memory independent
// of the transcript's length.
type recentIDs struct {
	set  map[string]struct{}
	ring [256]string
	next int
}

func (r *recentIDs) has(id string) bool {
	_, ok := r.set[id]
	return ok
}

func (r *recentIDs) add(id string) {
	if r.set == nil {
		r.set = map[string]struct{}{}
	}
	if old := r.ring[r.next]; old != "" {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.set[id] = struct{}{}
	r.next = (r.next + 1) % len(r.ring)
}

type scanner struct {
	include   bool
	maxResult int
	emit      func(learn.Turn) error
	chains    map[string]*chain
	stats     Stats
	cwd       string // the cwd of the line being read, kept on the turns it starts
	branch    string // its gitBranch, kept likewise
}

func newScanner(opts *Options, emit func(learn.Turn) error) *scanner {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxResultChars <= 0 {
		o.MaxResultChars = DefaultMaxResultChars
	}
	return &scanner{include: o.IncludeSidechain, maxResult: o.MaxResultChars, emit: emit, chains: map[string]*chain{}}
}

func (s *scanner) chain(key string) *chain {
	c := s.chains[key]
	if c == nil {
		c = &chain{sigs: map[string]struct{}{}}
		s.chains[key] = c
	}
	return c
}

// record is the part of a transcript line the reader looks at.
type record struct {
	typ, parentToolUse, agentID string
	cwd, branch                 string
	isMeta, isSidechain         bool
	isCompactSummary            bool
	message, data               gjson.Result
}

// line handles one raw line. The bytes are only valid during the call: every
// string kept beyond it is cloned.
func (s *scanner) line(b []byte) error {
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
	var rec record
	gjson.Parse(raw).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			rec.typ = v.Str
		case "isMeta":
			rec.isMeta = v.Type == gjson.True
		case "isSidechain":
			rec.isSidechain = v.Type == gjson.True
		case "isCompactSummary":
			rec.isCompactSummary = v.Type == gjson.True
		case "message":
			rec.message = v
		case "data":
			rec.data = v
		case "parentToolUseID":
			rec.parentToolUse = v.Str
		case "agentId":
			rec.agentID = v.Str
		case "cwd":
			rec.cwd = v.Str
		case "gitBranch":
			rec.branch = v.Str
		}
		return true
	})
	switch rec.typ {
	case "user", "assistant":
		if rec.isMeta {
			s.stats.Skipped++
			return nil
		}
		if rec.isCompactSummary {
			s.stats.Compaction++
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
		s.cwd, s.branch = rec.cwd, rec.branch
		return s.message(key, rec.typ, rec.message, rec.isSidechain)
	case "progress":
		s.cwd, s.branch = rec.cwd, rec.branch
		if s.include && rec.data.Get("type").Str == "agent_progress" {
			return s.nested(rec)
		}
		if rec.data.Get("type").Str == "agent_progress" {
			s.stats.Sidechain++
			return nil
		}
	}
	s.stats.Skipped++
	return nil
}

// nested reads a subagent message carried inside an agent_progress record.
func (s *scanner) nested(rec record) error {
	m := rec.data.Get("message")
	typ := m.Get("type").Str
	if (typ != "user" && typ != "assistant") || m.Get("isMeta").Type == gjson.True {
		s.stats.Skipped++
		return nil
	}
	return s.message("agent:"+rec.parentToolUse, typ, m.Get("message"), true)
}

// flushAll emits every chain's open turn, the main chain first.
func (s *scanner) flushAll() error {
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
func (s *scanner) flush(c *chain) error {
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

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 {
		c := b[len(b)-1]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}
