package seed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SessionLogSuffix names the session log beside the seed: for seed.json it
// is .seed.json.sessions. [RecordSession] appends to it; the next write
// commits and removes it (see [Update]).
const SessionLogSuffix = ".sessions"

// hookAfterSessionCommit runs (in tests only) after the logged sessions
// were committed and before the log is removed.
var hookAfterSessionCommit func(path string)

// loggedSession is one line of the session log.
type loggedSession struct {
	At string `json:"at"`           // [FormatTime] of the session start
	ID string `json:"id,omitempty"` // Claude Code's session id, if known
}

// sessionLogPath is the session log of the seed at path.
func sessionLogPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+SessionLogSuffix)
}

// RecordSession records a session start (at, and id when not "") without
// starting a process and without rewriting the seed: it is what the
// SessionStart hook runs, on the path Claude Code waits for. Under the
// seed lock it appends the session as one line to the session log beside
// the seed and fsyncs it. Every read of the seed ([ReadOnly], [Load],
// [Peek]) shows the newest logged session as state.lastSessionAt and
// lastSessionId; the next write of the seed ([Update], [RunSetup],
// [Repair]), which already runs git, writes it into the file, commits it
// ("Update: session … started") and removes the log. The caller records
// only sessions of a valid seed (the hook checks first).
func RecordSession(path, id string, at time.Time) error {
	unlock, err := lockSeed(path)
	if err != nil {
		return err
	}
	defer unlock()
	return appendSessionLog(path, loggedSession{At: FormatTime(at), ID: id})
}

// appendSessionLog appends rec as one JSON line to the session log and
// fsyncs it, so that a session reported as recorded survives a crash. The
// line starts with a newline too, so that a line torn by a kill mid-append
// costs only its own session, never the next one's.
func appendSessionLog(path string, rec loggedSession) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(sessionLogPath(path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("seed: session log: %w", err)
	}
	_, err = f.Write(append(append([]byte{'\n'}, line...), '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("seed: session log: %w", err)
	}
	return nil
}

// readSessionLog returns the sessions of the log, oldest first. A line that
// is not a session (empty, or torn: the process died mid-line) is skipped.
func readSessionLog(path string) ([]loggedSession, error) {
	data, err := os.ReadFile(sessionLogPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var recs []loggedSession
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		var r loggedSession
		if json.Unmarshal(sc.Bytes(), &r) == nil && IsDatetime(r.At) {
			recs = append(recs, r)
		}
	}
	return recs, nil
}

// commitSessionLog settles the session log under the seed lock, before a
// write (see prepareWrite): it makes sure the seed holds the newest logged
// session (a hook killed between its log line and its write left it out),
// commits the seed as "Update: session … started" when there is git (the
// first commit of a seed without a repository yet), and removes the log.
// It returns a warning, or "". The log is kept when the seed is missing or
// cannot take the session (a user's invalid edit, left for repair), or the
// commit fails, so that the next write tries again; a repeat after a kill
// between the commit and the removal changes nothing.
func commitSessionLog(g *gitRepo, path string) string {
	recs, err := readSessionLog(path)
	if err != nil {
		return "could not read the session log: " + err.Error()
	}
	if len(recs) == 0 {
		return removeSessionLog(path)
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return "" // kept for the seed that repair restores
	}
	if w := applyLoggedSession(path, recs[len(recs)-1]); w != "" {
		return w
	}
	if g != nil { // commit creates the repository when the seed has none yet
		if _, err := g.commit(CategoryUpdate, sessionsSummary(recs)); err != nil {
			return "could not commit the recorded sessions: " + err.Error()
		}
		if hookAfterSessionCommit != nil {
			hookAfterSessionCommit(path)
		}
	}
	return removeSessionLog(path)
}

// applyLoggedSession writes rec into the seed's state unless the seed
// already holds it or a later session. It returns a warning, or "".
func applyLoggedSession(path string, rec loggedSession) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "could not read the seed for the session log: " + err.Error()
	}
	res, err := parse(path, data, false)
	if err != nil {
		return "recorded sessions kept in " + sessionLogPath(path) + ": the seed is invalid"
	}
	if !takeSession(&res.Seed.State, rec) {
		return ""
	}
	if err := Write(path, res.Seed); err != nil {
		return "could not write the recorded session: " + err.Error()
	}
	return ""
}

// takeSession sets st's last session to rec unless st holds it or a later
// one, and reports whether it did.
func takeSession(st *State, rec loggedSession) bool {
	if cur, err := time.Parse(time.RFC3339Nano, st.LastSessionAt); err == nil {
		if at, _ := time.Parse(time.RFC3339Nano, rec.At); !at.After(cur) {
			return false
		}
	}
	st.LastSessionAt, st.LastSessionID = rec.At, rec.ID
	return true
}

// withLoggedSessions shows s (read from path) with the newest session of
// the session log, which the next write commits (see [RecordSession]).
func withLoggedSessions(path string, s *Seed) {
	if recs, err := readSessionLog(path); err == nil && len(recs) > 0 {
		takeSession(&s.State, recs[len(recs)-1])
	}
}

// sessionsSummary is the commit summary for the logged sessions.
func sessionsSummary(recs []loggedSession) string {
	var ids []string
	for _, r := range recs {
		if r.ID != "" {
			ids = append(ids, r.ID)
		}
	}
	switch {
	case len(recs) == 1 && len(ids) == 1:
		return "session " + ids[0] + " started"
	case len(recs) == 1:
		return "session started"
	case len(ids) == 0:
		return fmt.Sprintf("%d sessions started", len(recs))
	}
	return fmt.Sprintf("%d sessions started: %s", len(recs), strings.Join(ids, ", "))
}

func removeSessionLog(path string) string {
	if err := os.Remove(sessionLogPath(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "could not remove the session log: " + err.Error()
	}
	return ""
}
