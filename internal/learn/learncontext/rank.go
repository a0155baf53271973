package learncontext

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// Scope says for which session the context is assembled. The zero Scope is
// no project in particular: every established entry counts.
type Scope struct {
	// Project is the current project's identity (internal/project); when
	// set, only entries of that project and entries that hold everywhere
	// (no project) are taken.
	Project string
	// Stale maps the id of an entry that no longer matches the repository
	// (a removed script, Makefile target or file; see [Stale]) to why.
	Stale map[string]string
}

// MaxItemChars bounds one item's text: the context is a list of short,
// sourced reminders, not the entries' full evidence.
const MaxItemChars = 240

// ReceiptItem is one line of a context receipt: an entry considered for
// the context, where it went and why.
type ReceiptItem struct {
	ID      string `json:"id"`
	Section string `json:"section,omitempty"`
	Text    string `json:"text"`
	Why     string `json:"why"`
	Tokens  int    `json:"tokens"`
	// LeftOut says why the entry is not in the context: another project,
	// stale, evidence only, or the budget. Empty when it is in.
	LeftOut string `json:"leftOut,omitempty"`
}

// rankedEntry is an entry with its rank and the text it is shown as.
type rankedEntry struct {
	learn.Entry
	tier      int // 0 rules and procedures, 1 corrections, preferences, decisions, 2 facts
	confirmed bool
	why       string
}

// rank returns the entries that may go into the context for scope, best
// first, and those left out with why (as receipt items). Best is: pinned,
// then rules and procedures before the rest, confirmed before unconfirmed,
// recent before old, more confident first.
func rank(entries []learn.Entry, scope Scope) (ranked []rankedEntry, out []ReceiptItem) {
	for _, e := range knowledge.ActiveOnly(entries) {
		skip := ""
		switch {
		case scope.Project != "" && e.Project != "" && e.Project != scope.Project:
			skip = "another project (" + projectName(e.Project) + ")"
		case scope.Stale[e.ID] != "":
			skip = "stale: " + scope.Stale[e.ID]
		case !e.Established():
			skip = "evidence only: " + e.Evidence
		}
		if skip != "" {
			out = append(out, ReceiptItem{ID: e.ID, Text: ItemText(e, true), Why: string(e.Type), LeftOut: skip})
			continue
		}
		r := rankedEntry{Entry: e, tier: e.Type.Tier(), confirmed: confirmed(e)}
		r.why = why(r)
		ranked = append(ranked, r)
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		switch {
		case a.Pinned != b.Pinned:
			return a.Pinned
		case a.tier != b.tier:
			return a.tier < b.tier
		case a.confirmed != b.confirmed:
			return a.confirmed
		case lastSeen(a.Entry) != lastSeen(b.Entry):
			return lastSeen(a.Entry) > lastSeen(b.Entry) // RFC 3339: most recent first
		}
		return a.Confidence > b.Confidence
	})
	return ranked, out
}

// confirmed reports whether the user or repetition confirmed e: pinned,
// said with @remember (confidence 1), or seen in two sessions or more.
func confirmed(e learn.Entry) bool {
	if e.Pinned || e.Confidence >= 1 {
		return true
	}
	return e.Observed != nil && e.Observed.SessionCount >= 2
}

func why(r rankedEntry) string {
	var parts []string
	parts = append(parts, string(r.Type))
	switch {
	case r.Pinned:
		parts = append(parts, "pinned")
	case r.confirmed && r.Observed != nil:
		parts = append(parts, fmt.Sprintf("confirmed in %d sessions", r.Observed.SessionCount))
	case r.confirmed:
		parts = append(parts, "confirmed (@remember)")
	default:
		parts = append(parts, "unconfirmed")
	}
	if r.Observed != nil && r.Observed.Final > 0 && r.Observed.Runs < 2 {
		parts = append(parts, "the final green run")
	}
	if t := lastSeen(r.Entry); t != "" {
		parts = append(parts, "last "+t[:min(len(t), 10)])
	}
	return strings.Join(parts, ", ")
}

// lastSeen is when e was last learned or updated.
func lastSeen(e learn.Entry) string { return e.ExtractedAt }

// ItemText is how e is shown in a context: its content (a list of steps
// keeps its lines, indented under the item), cut to [MaxItemChars],
// followed by its source ("[session:ab12cd34]") and, with withProject, its
// project.
func ItemText(e learn.Entry, withProject bool) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(e.Content), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	c := strings.Join(lines, "\n  ")
	if r := []rune(c); len(r) > MaxItemChars {
		c = string(r[:MaxItemChars-1]) + "…"
	}
	if src := shortSource(e.Source); src != "" {
		c += " [" + src + "]"
	}
	if withProject {
		c += knowledge.ProjectSuffix(e)
	}
	return c
}

// shortSource keeps a session source whose id is a UUID to its first
// eight characters (enough to find it); other names are kept whole, up to
// 40 characters.
func shortSource(s string) string {
	id, ok := strings.CutPrefix(s, "session:")
	if !ok {
		return s
	}
	if uuidLike.MatchString(id) {
		return "session:" + id[:8]
	}
	if r := []rune(id); len(r) > 40 {
		id = string(r[:39]) + "…"
	}
	return "session:" + id
}

// uuidLike matches a Claude Code session id.
var uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func projectName(p string) string {
	if filepath.Base(p) == ".git" {
		p = filepath.Dir(p)
	}
	return p
}
