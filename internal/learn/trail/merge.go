package trail

import (
	"fmt"
	"math"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Confidence is the confidence of behaviour seen in sessions distinct
// sessions, runs times in all: 0.5 for one run in one session, +0.15 for
// each further session, +0.05 for each further run beyond one a session
// (at most +0.10), never above 0.95. Repetition across sessions is what
// makes behaviour a habit of the project; many runs in one session weigh
// little.
func Confidence(sessions, runs int) float64 {
	c := 0.5 + 0.15*float64(max(sessions-1, 0)) + 0.05*float64(min(max(runs-sessions, 0), 2))
	return math.Round(min(c, 0.95)*100) / 100
}

// Merge folds one session's candidates into the store's entries (all of
// them, active or not) and returns the entries to append: new entries (no
// ID) and new versions of existing ones (same ID). project resolves a
// candidate's working directory to its project identity; candidates of
// one project with the same key are one. An entry with the same project
// and key that was forgotten or superseded stays so: the behaviour is not
// learned again. A session already counted in an entry (a forced re-run)
// changes nothing. now stamps new and updated entries.
func Merge(existing []learn.Entry, cands []Candidate, project func(cwd string) string, source, now string) []learn.Entry {
	byKey := map[[2]string]*learn.Entry{}
	for i := range existing {
		e := &existing[i]
		if e.Observed != nil {
			byKey[[2]string{e.Project, e.Observed.Key}] = e // latest version wins: Entries returns one per id
		}
	}
	var out []learn.Entry
	pos := map[[2]string]int{}
	for _, c := range cands {
		k := [2]string{project(c.Cwd), c.Key}
		if i, ok := pos[k]; ok { // the same behaviour under another cwd of the project
			o := out[i].Observed
			o.Runs += c.Runs
			if c.Final && o.Final == 0 {
				o.Final = 1
			}
			out[i].Confidence = Confidence(o.SessionCount, o.Runs)
			out[i].Evidence = evidence(o, source)
			continue
		}
		e, ok := next(byKey[k], c, k[0], source, now)
		if !ok {
			continue
		}
		pos[k] = len(out)
		out = append(out, e)
	}
	return out
}

// next returns the new version of old (nil: a new entry) after c was seen
// in source; ok is false when nothing changes.
func next(old *learn.Entry, c Candidate, project, source, now string) (learn.Entry, bool) {
	if old == nil {
		o := &learn.Observed{Key: c.Key, Sessions: []string{source}, SessionCount: 1, Runs: c.Runs, Final: finals(c)}
		return learn.Entry{Type: c.Type, Content: c.Content, Confidence: Confidence(1, c.Runs),
			Entities: append([]string(nil), c.Entities...), Evidence: evidence(o, source), Source: source,
			ExtractedAt: now, Project: project, Observed: o}, true
	}
	if !old.Active() {
		return learn.Entry{}, false
	}
	for _, s := range old.Observed.Sessions {
		if s == source {
			return learn.Entry{}, false
		}
	}
	e := *old
	o := *old.Observed
	o.Sessions = append(append([]string(nil), o.Sessions...), source)
	if len(o.Sessions) > learn.MaxObservedSessions {
		o.Sessions = o.Sessions[len(o.Sessions)-learn.MaxObservedSessions:]
	}
	o.SessionCount++
	o.Runs += c.Runs
	o.Final += finals(c)
	e.Observed = &o
	e.Confidence = Confidence(o.SessionCount, o.Runs)
	e.Evidence = evidence(&o, source)
	e.ExtractedAt = now
	return e, true
}

func evidence(o *learn.Observed, last string) string {
	verb := "ran successfully"
	if strings.HasPrefix(o.Key, "fact:") {
		verb = "seen"
	} else if strings.HasPrefix(o.Key, "fix:") {
		verb = "failed, then fixed this way,"
	}
	return fmt.Sprintf("%s %s in %s, last in %s", verb, plural(o.Runs, "time"), plural(o.SessionCount, "session"), last)
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}

// finals is 1 when c was its session's final green run.
func finals(c Candidate) int {
	if c.Final {
		return 1
	}
	return 0
}
