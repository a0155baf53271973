package classify

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Procedure is an ordered list of two or more steps found in a message.
type Procedure struct {
	// Title is the sentence that introduces the list when it ends with a
	// colon ("To release:"); empty otherwise.
	Title string
	// Steps are the step texts in order, markers and sequence words removed.
	Steps []string
}

// add appends a step unless it is empty.
func (p *Procedure) add(step string) {
	if step != "" {
		p.Steps = append(p.Steps, step)
	}
}

// String renders p as its title (if any) followed by one numbered step a
// line: "To release:\n1. bump the version\n2. tag it".
func (p Procedure) String() string {
	var b strings.Builder
	b.WriteString(p.Title)
	for i, s := range p.Steps {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". ")
		b.WriteString(s)
	}
	return b.String()
}

// listPatterns are the regexps of list detection, compiled on first use.
type listPatterns struct {
	// marker finds step markers: "1." "1)" "(1)" "Step 1:" at the start
	// of a line or after white space, followed by white space.
	marker *regexp.Regexp
	// bullet is a bulleted line; seq the sequence word opening a step.
	bullet, seq, first, sentEnd, whiteRun *regexp.Regexp
}

var lists = sync.OnceValue(func() *listPatterns {
	return &listPatterns{
		marker:   regexp.MustCompile(`(?im)(?:^|[ \t]+)\(?(?:step[ \t]+(\d{1,2})[:.)]|(\d{1,2})[.)])[ \t]+`),
		bullet:   regexp.MustCompile(`^[ \t]*[-*•+][ \t]+(.*)$`),
		seq:      regexp.MustCompile(`(?i)^(first(ly)?|then|next|after that|afterwards|second(ly)?|third(ly)?|finally|lastly)\b[,:]?\s*`),
		first:    regexp.MustCompile(`(?i)^first(ly)?\b`),
		sentEnd:  regexp.MustCompile(`[.!?](\s|$)`),
		whiteRun: regexp.MustCompile(`\s+`),
	}
})

// Procedures finds the multi-step lists of text and returns them with rest,
// the text outside them (lists and their titles cut out, the cuts joined by
// line breaks so no sentence spans a cut). Two forms are lists:
//
//   - numbered steps "1." / "1)" / "(1)" / "Step 1:", numbered 1, 2, 3, …,
//     one a line or inline ("To release: 1. test 2. tag 3. push"); a step
//     runs to the next marker; the last one to the end of its line (with
//     indented continuation lines) when it opens a line, else to the end of
//     its sentence;
//   - bulleted lines ("-", "*", "•", "+") whose first item opens with
//     "first" ("- First, build\n- Then test\n- Finally, push").
//
// Empty steps are dropped; a list of fewer than two steps is not a
// procedure and stays in rest.
func Procedures(text string) (procs []Procedure, rest string) {
	text = Bound(text)
	if !strings.ContainsAny(text, "0123456789-*•+") { // no step marker, no bullet
		return nil, text
	}
	spans := numberedRuns(text)
	for _, r := range bulletRuns(text) {
		if !overlaps(r, spans) {
			spans = append(spans, r)
		}
	}
	if len(spans) == 0 {
		return nil, text
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var parts []string
	at := 0
	for _, s := range spans {
		title, titleStart := titleBefore(text[at:s.start])
		s.proc.Title = title
		procs = append(procs, s.proc)
		parts = append(parts, text[at:at+titleStart])
		at = s.end
	}
	parts = append(parts, text[at:])
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return procs, strings.Join(kept, "\n")
}

// list is a list found in a text: its byte span and its steps.
type list struct {
	start, end int
	proc       Procedure
}

type marker struct {
	n, start, end int // number, start of the match, start of the step text
	lineStart     bool
}

func markers(text string) []marker {
	if !maybeMarker(text) {
		return nil
	}
	var out []marker
	for _, m := range lists().marker.FindAllStringSubmatchIndex(text, -1) {
		num := m[2:4]
		if num[0] < 0 {
			num = m[4:6]
		}
		n, _ := strconv.Atoi(text[num[0]:num[1]])
		start := m[0]
		for start < len(text) && (text[start] == ' ' || text[start] == '\t') {
			start++
		}
		// The leading white space is matched whole, so the marker opens a
		// line when the match does.
		ls := m[0] == 0 || text[m[0]-1] == '\n'
		out = append(out, marker{n: n, start: start, end: m[1], lineStart: ls})
	}
	return out
}

// maybeMarker reports whether text has a digit followed by ':', '.' or ')'
// and then a space or tab: every match of the marker regexp ends so
// ("1. ", "2) ", "step 3: "), so without one there is no marker and the
// regexp need not run.
func maybeMarker(text string) bool {
	for i := 0; i+2 < len(text); i++ {
		if c := text[i]; c >= '0' && c <= '9' {
			if p := text[i+1]; (p == ':' || p == '.' || p == ')') && (text[i+2] == ' ' || text[i+2] == '\t') {
				return true
			}
		}
	}
	return false
}

// numberedRuns returns the runs of markers numbered 1, 2, 3, … with two or
// more steps. A marker numbered 1 always opens a new run; other numbers out
// of sequence are part of the step text.
func numberedRuns(text string) []list {
	ms := markers(text)
	var out []list
	for i := 0; i < len(ms); {
		if ms[i].n != 1 {
			i++
			continue
		}
		seq := []marker{ms[i]}
		j := i + 1
		for ; j < len(ms) && ms[j].n != 1; j++ {
			if ms[j].n == seq[len(seq)-1].n+1 {
				seq = append(seq, ms[j])
			}
		}
		i = j
		if len(seq) < 2 {
			continue
		}
		var p Procedure
		for k, m := range seq[:len(seq)-1] {
			p.add(stepText(text[m.end:seq[k+1].start]))
		}
		last := seq[len(seq)-1]
		end := lastStepEnd(text, last)
		p.add(stepText(text[last.end:end]))
		if len(p.Steps) >= 2 {
			out = append(out, list{start: seq[0].start, end: end, proc: p})
		}
	}
	return out
}

// lastStepEnd is where the last step of a list ends: for a step opening a
// line, the end of the line and of the indented lines after it; for an
// inline step, the end of its sentence or line.
func lastStepEnd(text string, m marker) int {
	eol := lineEndOf(text, m.end)
	if !m.lineStart {
		if loc := lists().sentEnd.FindStringIndex(text[m.end:eol]); loc != nil {
			return m.end + loc[0] + 1
		}
		return eol
	}
	for eol < len(text) {
		next := lineEndOf(text, eol+1)
		line := text[eol+1 : next]
		if strings.TrimSpace(line) == "" || !(line[0] == ' ' || line[0] == '\t') {
			break
		}
		eol = next
	}
	return eol
}

// bulletRuns returns the bulleted lists (two or more items) whose first item
// opens with "first".
func bulletRuns(text string) []list {
	var out []list
	var cur *list
	flush := func() {
		if cur != nil && len(cur.proc.Steps) >= 2 {
			out = append(out, *cur)
		}
		cur = nil
	}
	for at := 0; at <= len(text); {
		end := lineEndOf(text, at)
		line := text[at:end]
		m := lists().bullet.FindStringSubmatch(line)
		switch {
		case m == nil && strings.TrimSpace(line) == "" && cur != nil:
			// a blank line inside a list
		case m == nil:
			flush()
		case cur == nil && lists().first.MatchString(m[1]):
			cur = &list{start: at}
			fallthrough
		case cur != nil:
			cur.proc.add(upperFirst(stepText(lists().seq.ReplaceAllString(m[1], ""))))
			cur.end = end
		}
		at = end + 1
	}
	flush()
	return out
}

// titleBefore returns the last sentence of before when it ends with ':'
// (the list's title) and where it starts; else "" and len(before).
func titleBefore(before string) (string, int) {
	trimmed := strings.TrimRight(before, " \t\r\n")
	if !strings.HasSuffix(trimmed, ":") {
		return "", len(before)
	}
	sents := Sentences(trimmed)
	title := sents[len(sents)-1]
	return lists().whiteRun.ReplaceAllString(title, " "), strings.LastIndex(trimmed, title)
}

// stepText collapses white space and drops trailing punctuation.
func stepText(s string) string {
	return strings.TrimRight(strings.TrimSpace(lists().whiteRun.ReplaceAllString(s, " ")), ".;, ")
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func lineEndOf(text string, i int) int {
	if i > len(text) {
		return len(text)
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

func overlaps(r list, spans []list) bool {
	for _, s := range spans {
		if r.start < s.end && s.start < r.end {
			return true
		}
	}
	return false
}
