package pipeline

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

// readSession reads the transcript at path with its subagents' trails:
// the sidechain lines and agent_progress records inside it, and the
// subagent transcripts Claude Code 2.x writes beside it
// (<session>/subagents/*.jsonl). Subagent turns are marked Sidechain: their
// tool calls are mined like the main thread's, their "user" turns (prompts
// Claude wrote) are never taken for the user's words. Stats add up over
// the files.
func readSession(path string, opts *transcript.Options) ([]learn.Turn, transcript.Stats, error) {
	o := transcript.Options{}
	if opts != nil {
		o = *opts
	}
	o.IncludeSidechain = true
	turns, st, err := transcript.ReadFile(path, &o)
	if err != nil {
		return nil, st, err
	}
	for _, sub := range SubagentFiles(path) {
		more, sst, err := transcript.ReadFile(sub, &o)
		if err != nil {
			continue // a subagent file that vanished or cannot be read costs only its trail
		}
		for i := range more {
			more[i].Sidechain = true
		}
		turns = append(turns, more...)
		st.Lines += sst.Lines
		st.Malformed += sst.Malformed
	}
	return turns, st, nil
}

// SubagentFiles returns the subagent transcripts of the session transcript
// at path (<dir>/<session>/subagents/*.jsonl), sorted.
func SubagentFiles(path string) []string {
	m, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents", "*.jsonl"))
	sort.Strings(m)
	return m
}

// isSubagentFile reports whether path is a subagent transcript of a
// session whose own transcript lies beside its directory: it is read with
// that session, not as a session of its own.
func isSubagentFile(path string) (bool, error) {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "subagents" {
		return false, nil
	}
	session := filepath.Dir(dir) + ".jsonl"
	ok, err := filepath.Glob(session)
	return len(ok) == 1, err
}
