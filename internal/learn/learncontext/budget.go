package learncontext

import (
	"fmt"
	"strings"
)

// sectionOrder is the order sections appear in the prompt.
var sectionOrder = []string{"CONSTRAINTS", "IDENTITY", "PROCEDURES", "LEARNED KNOWLEDGE"}

// group is a run of items of one section, filled in priority order.
type group struct {
	section string
	items   []string
	ids     []string // the entry id of each item, when ids is set
	whys    []string // why each entry ranks where it does
}

// noteRoom is kept for the "left out" line when not everything fits.
const noteRoom = 160

// fill takes whole items of groups, in order, while they fit in budget
// characters, stopping at the first that does not; it returns the
// sections as rendered, the prompt (never longer than budget) and what was
// left out per section, and the ids of the entries taken.
func fill(groups []group, budget int) ([]Section, string, []LeftOut, map[string]bool) {
	total := 0
	for _, g := range groups {
		for _, it := range g.items {
			total += len(it) + 1
		}
	}
	room := budget
	if total+len(sectionOrder)*24 > budget { // may not all fit: keep room for the note
		room = max(0, budget-noteRoom)
	}
	kept := map[string][]string{}
	in := map[string]bool{}
	left := map[string]int{}
	used, full := 0, false
	for _, g := range groups {
		for k, it := range g.items {
			cost := len(it) + 1
			if len(kept[g.section]) == 0 {
				cost += len("## "+g.section+"\n") + 1
			}
			if full || used+cost > room {
				full = true
				left[g.section]++
				continue
			}
			kept[g.section] = append(kept[g.section], it)
			used += cost
			if k < len(g.ids) {
				in[g.ids[k]] = true
			}
		}
	}
	var sections []Section
	var b strings.Builder
	for i, name := range sectionOrder {
		if len(kept[name]) == 0 {
			continue
		}
		content := strings.Join(kept[name], "\n")
		sections = append(sections, Section{Name: name, Content: content, Priority: i, Truncatable: true})
		fmt.Fprintf(&b, "## %s\n%s\n\n", name, content)
	}
	var out []LeftOut
	var parts []string
	for _, name := range sectionOrder {
		if n := left[name]; n > 0 {
			out = append(out, LeftOut{Section: name, Items: n})
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ToLower(name)))
		}
	}
	prompt := strings.TrimSpace(b.String())
	if len(out) > 0 {
		note := "(Left out to fit the budget: " + strings.Join(parts, ", ") + " items.)"
		if prompt != "" {
			note = "\n\n" + note
		}
		if len(prompt)+len(note) <= budget {
			prompt += note
		}
	}
	return sections, prompt, out, in
}
