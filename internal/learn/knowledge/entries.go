// Package knowledge keeps learned knowledge: an append-only JSONL file of
// [learn.Entry] records (entries.jsonl, the source of truth), its rendered
// Markdown view (knowledge.md) and the list of transcripts already extracted
// (processed.jsonl).
//
// # Invariants
//
//   - Records are only appended, never rewritten. Changing an entry (forget,
//     supersede) appends a new version with the same id; the last version of
//     an id wins, in the order ids first appeared.
//   - Every append writes whole lines and syncs. A crash mid-write leaves at
//     most one torn last line: readers ignore it and the next [Open] or
//     append truncates it away, so later records are never glued onto it.
//     The changes of one pipeline run are one [Store.Batch]: one append,
//     one sync of each file, the processed record synced only after the
//     entries it counts.
//   - Nothing is stored before [RedactEntry] (internal/redact) has replaced
//     the secrets and <private> blocks in its text with markers.
package knowledge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Parse reads JSONL entry records from r and collapses versions: the last
// record of each id wins, kept at the position where the id first appeared.
// Lines that do not parse, records without id, and an unterminated last line
// are skipped and counted in bad.
func Parse(r io.Reader) (entries []learn.Entry, bad int, err error) {
	br := bufio.NewReader(r)
	index := map[string]int{}
	for {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && rerr != io.EOF {
			return entries, bad, fmt.Errorf("read entries: %w", rerr)
		}
		complete := rerr == nil
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			var e learn.Entry
			if !complete || json.Unmarshal(line, &e) != nil || e.ID == "" {
				bad++
			} else if i, ok := index[e.ID]; ok {
				entries[i] = e
			} else {
				index[e.ID] = len(entries)
				entries = append(entries, e)
			}
		}
		if rerr == io.EOF {
			return entries, bad, nil
		}
	}
}

// ActiveOnly returns the entries that are neither superseded nor forgotten.
func ActiveOnly(entries []learn.Entry) []learn.Entry {
	var out []learn.Entry
	for _, e := range entries {
		if e.Active() {
			out = append(out, e)
		}
	}
	return out
}

// IsDuplicate reports whether candidate repeats one of existing, by
// meaning rather than shared words: same type, an entity in common
// (compared as stemmed tokens, case-insensitively; see [Entities]) unless
// neither names one (then every content word of each, stemmed and
// without filler, must be said by the other: an unknown tool's name is a
// word too), and the same thing
// said — same polarity ("never" vs "always"), nothing named by each that
// the other lacks ("eslint before committing" is not "go vet before
// committing"), and word-set Jaccard similarity above 0.6 or, stemmed and
// without filler words, above 0.6 (a paraphrase). Inactive entries
// count too, so forgotten knowledge is not re-learned as new; a forgotten
// entry needs no entity in common (it never comes back, whether it or the
// candidate has entities or not).
func IsDuplicate(candidate learn.Entry, existing []learn.Entry) bool {
	x := NewIndex(existing)
	return x.IsDuplicate(candidate)
}

// Supersedes reports whether candidate, a new entry that is not a
// duplicate, replaces old: same type, an entity in common, a word-set
// Jaccard similarity between 0.4 and 0.6, at least old's confidence, and
// saying all old says (its content words, stemmed, without filler): a
// restatement that adds to the same point, like "Never push to main" →
// "Never push to main without a review". Distinct scopes never replace
// each other: "Never force-push to main" and "Never push to main without
// review", "Never use fmt.Println in the api service" and "… in the cli
// tool", each say something the other does not.
func Supersedes(candidate, old learn.Entry) bool {
	if candidate.Type != old.Type || candidate.Confidence < old.Confidence {
		return false
	}
	c, o := meaningOf(candidate), meaningOf(old)
	if !c.sharesEntity(o) || conflict(c, o) || extraWord(o, c) {
		return false
	}
	j := Jaccard(candidate.Content, old.Content)
	return j >= 0.4 && j <= 0.6
}

// Jaccard is the similarity of the sets of words longer than two characters
// in a and b (lower-cased, split at non-word characters); 0 when both are
// empty.
func Jaccard(a, b string) float64 { return jaccardSets(words(a), words(b)) }

func words(s string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		if len(w) > 2 {
			out[w] = struct{}{}
		}
	}
	return out
}

// SectionTitles maps each knowledge type to its knowledge.md section.
var SectionTitles = map[learn.KnowledgeType]string{
	learn.Preference: "Preferences",
	learn.Fact:       "Facts",
	learn.Rule:       "Rules",
	learn.Procedure:  "Procedures",
	learn.Correction: "Corrections",
	learn.Decision:   "Decisions",
}

// RenderMarkdown renders the active entries as Markdown: one section per
// type in [learn.KnowledgeTypes] order, entries by descending confidence.
// Superseded and forgotten entries are left out.
func RenderMarkdown(entries []learn.Entry) string {
	groups := map[learn.KnowledgeType][]learn.Entry{}
	for _, e := range ActiveOnly(entries) {
		groups[e.Type] = append(groups[e.Type], e)
	}
	var b strings.Builder
	b.WriteString("# Learned knowledge\n\n")
	for _, t := range learn.KnowledgeTypes {
		items := groups[t]
		if len(items) == 0 {
			continue
		}
		sort.SliceStable(items, func(i, j int) bool { return items[i].Confidence > items[j].Confidence })
		fmt.Fprintf(&b, "## %s\n\n", SectionTitles[t])
		for _, e := range items {
			fmt.Fprintf(&b, "- %s%s\n", oneLine(e.Content), ProjectSuffix(e))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ProjectSuffix says which project an entry holds for, " (project:
// <repository or directory>)", or "" for an entry that holds everywhere.
// A git common directory is shown as the repository it belongs to.
func ProjectSuffix(e learn.Entry) string {
	if e.Project == "" {
		return ""
	}
	p := e.Project
	if filepath.Base(p) == ".git" {
		p = filepath.Dir(p)
	}
	return " (project: " + p + ")"
}

// oneLine keeps a multi-line entry (a procedure) inside its list item.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ")
}

// Index answers [IsDuplicate] for many candidates against a growing set
// of entries without recomputing word sets. The zero value is empty and
// ready; an Index is not safe for concurrent use.
type Index struct {
	items []indexed
}

type indexed struct {
	typ       learn.KnowledgeType
	forgotten bool
	words     map[string]struct{}
	meaning   meaning
}

// NewIndex returns an index holding entries.
func NewIndex(entries []learn.Entry) *Index {
	x := &Index{}
	for _, e := range entries {
		x.Add(e)
	}
	return x
}

// Add puts e into the index.
func (x *Index) Add(e learn.Entry) {
	x.items = append(x.items, indexed{typ: e.Type, forgotten: e.Forgotten, words: words(e.Content), meaning: meaningOf(e)})
}

// AddNew puts e into the index unless it duplicates an indexed entry
// ([Index.IsDuplicate]), and reports whether it did.
func (x *Index) AddNew(e learn.Entry) bool {
	if x.IsDuplicate(e) {
		return false
	}
	x.Add(e)
	return true
}

// IsDuplicate reports whether e duplicates an indexed entry, by the rule
// of the function [IsDuplicate].
func (x *Index) IsDuplicate(e learn.Entry) bool {
	var cw map[string]struct{}
	var cm meaning
	for _, it := range x.items {
		if it.typ != e.Type {
			continue
		}
		if cw == nil {
			cw, cm = words(e.Content), meaningOf(e)
		}
		if !it.forgotten {
			if none := len(cm.entities) == 0 && len(it.meaning.entities) == 0; none && wordsConflict(cm, it.meaning) {
				continue // naming no entity, each says a word the other does not ("run semgrep" / "run trivy")
			} else if !none && !cm.sharesEntity(it.meaning) {
				continue // about different things
			}
		}
		if sameThing(cm, it.meaning, jaccardSets(it.words, cw)) {
			return true
		}
	}
	return false
}

func jaccardSets(wa, wb map[string]struct{}) float64 {
	union, inter := len(wa), 0
	for w := range wb {
		if _, ok := wa[w]; ok {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
