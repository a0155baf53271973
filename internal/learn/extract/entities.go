package extract

import "github.com/paige-dev/paige/internal/learn/knowledge"

// Entities returns the real entities s names (tools, libraries, commands,
// paths, languages, services): see [knowledge.Entities]. The heuristic
// extractor stores them with each entry; dedup compares them.
func Entities(s string) []string {
	out := knowledge.Entities(s)
	if out == nil {
		out = []string{}
	}
	return out
}
