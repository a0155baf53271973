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
	"slices"
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
// Jaccard similarity between 0.4 and 0.6 (a restatement of the same point,
// like "User prefers pnpm over npm" → "User strongly prefers pnpm"), at
// least old's confidence, and not about a different thing: "Never
// force-push to release branches" does not replace "Never force-push to
// main", since each names something the other does not.
func Supersedes(candidate, old learn.Entry) bool {
	if candidate.Type != old.Type || candidate.Confidence < old.Confidence {
		return false
	}
	c, o := indexOf(candidate), indexOf(old)
	if !c.meaning.sharesEntity(o.meaning) || conflict(c.meaning, o.meaning) {
		return false
	}
	j := jaccard(c.words, o.words)
	return j >= 0.4 && j <= 0.6
}

// Jaccard is the similarity of the sets of words longer than two characters
// in a and b (lower-cased, split at non-word characters); 0 when both are
// empty.
func Jaccard(a, b string) float64 { return jaccard(words(a), words(b)) }

// words is the set of words longer than two characters of s, lower-cased
// and split at non-word characters.
func words(s string) sortedSet { return newSortedSet(appendWords(nil, strings.ToLower(s))) }

// appendWords appends to dst the words of lc, lower-cased already, longer
// than two characters.
func appendWords(dst []string, lc string) []string {
	n := len(dst)
	dst = appendFields(dst, lc, func(c byte) bool {
		return !(c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c > 127)
	})
	return dst[:n+len(slices.DeleteFunc(dst[n:], func(w string) bool { return len(w) <= 2 }))]
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
	// words and sets are reused for each candidate's word sets, copied
	// out only for a candidate that is added.
	words []string
	sets  []sortedSet
}

type indexed struct {
	typ       learn.KnowledgeType
	forgotten bool
	words     sortedSet
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
func (x *Index) Add(e learn.Entry) { x.items = append(x.items, indexOf(e)) }

// IsDuplicate reports whether e duplicates an indexed entry, by the rule
// of the function [IsDuplicate].
func (x *Index) IsDuplicate(e learn.Entry) bool {
	dup, _, _ := x.isDuplicate(e, false)
	return dup
}

// AddNew puts e into the index unless it duplicates an indexed entry
// ([Index.IsDuplicate]), and reports whether it did: what [Index.Add]
// after IsDuplicate does, reading e once.
func (x *Index) AddNew(e learn.Entry) bool { return x.addNew(e, false) }

// AddNewNamed is [Index.AddNew] for an entry whose Entities are exactly
// [Entities] of its Content (as the heuristics give them, before and after
// redaction): they are not worked out again.
func (x *Index) AddNewNamed(e learn.Entry) bool { return x.addNew(e, true) }

func (x *Index) addNew(e learn.Entry, named bool) bool {
	dup, it, read := x.isDuplicate(e, named)
	if dup {
		return false
	}
	if !read {
		it = indexOfNamed(e, named)
	} else {
		it = it.own()
	}
	x.items = append(x.items, it)
	return true
}

// isDuplicate is [Index.IsDuplicate], also returning e indexed and true
// when it had to read it (when some entry has its type): read into the
// index's scratch arrays, valid until the next call; named is
// AddNewNamed's promise.
func (x *Index) isDuplicate(e learn.Entry, named bool) (bool, indexed, bool) {
	var c indexed
	read := false
	for _, it := range x.items {
		if it.typ != e.Type {
			continue
		}
		if !read {
			var endScratch [16]int
			var ends []int
			x.words, ends = readInto(e, named, x.words[:0], endScratch[:0])
			c, x.sets = indexedOf(e, x.words, ends, x.sets[:0])
			read = true
		}
		cm := c.meaning
		if !it.forgotten {
			if none := len(cm.entities) == 0 && len(it.meaning.entities) == 0; none && wordsConflict(cm, it.meaning) {
				continue // naming no entity, each says a word the other does not ("run semgrep" / "run trivy")
			} else if !none && !cm.sharesEntity(it.meaning) {
				continue // about different things
			}
		}
		if sameThing(cm, it.meaning, jaccard(it.words, c.words)) {
			return true, c, read
		}
	}
	return false, c, read
}
