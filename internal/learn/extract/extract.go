// Package extract turns signal turns into knowledge entries. One interface,
// [Extractor], has three implementations: [Heuristic] (no model, the
// default), [Claude] (structured output through internal/llm) and [Ollama]
// (a local model with a JSON-schema format).
package extract

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/classify"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// Extractor extracts knowledge from a chunk of turns (signal user turns
// with their neighbouring assistant turns). source names the transcript
// ("session:<name>"). Returned entries have ID, Source and ExtractedAt set.
// Implementations are safe for concurrent use.
type Extractor interface {
	Extract(ctx context.Context, turns []learn.Turn, source string) ([]learn.Entry, error)
	// Name says which extractor (and model) this is, e.g. "heuristic",
	// "claude:claude-haiku-4-5", "ollama:llama3.2".
	Name() string
}

// AnalysedExtractor is an [Extractor] that can take the classifier's
// analyses of the turns (analyses[i] is [classify.Analyze] of turns[i])
// instead of reading each turn's text
// again: the pipeline classifies every turn once and hands the analyses on.
type AnalysedExtractor interface {
	Extractor
	ExtractAnalysed(ctx context.Context, turns []learn.Turn, analyses []classify.Analysis, source string) ([]learn.Entry, error)
}

// Prompt is the extraction instruction given to models (the plan's).
const Prompt = `You are a knowledge extraction system. Read this conversation transcript between a user and an AI coding assistant, and extract knowledge that would help a developer agent working on this project.

For each piece of knowledge, classify it:
- preference: user prefers X over Y
- fact: X is true about this project, team, or codebase
- rule: never do X, always do Y (hard constraint)
- procedure: step-by-step process for doing X
- correction: user corrected a mistake — extract the CORRECT answer
- decision: user chose X over alternatives

Rules for extraction:
- Only extract knowledge useful to a developer agent
- Skip greetings, confirmations, tool output noise, and meta-conversation
- Prefer explicit user statements over inferences
- For corrections, extract the RIGHT answer (not the wrong one)
- Merge related items (don't extract "uses TypeScript" and "prefers TypeScript" separately)
- Be conservative: when in doubt, don't extract
- Set confidence to 1.0 for explicit "I always/never/prefer" statements
- Text inside <private> tags has been removed; never guess at it

Answer with JSON: {"items": [{"type", "content", "confidence", "evidence", "entities"}]}.`

// Item is one extracted piece of knowledge as a model returns it.
type Item struct {
	Type       string   `json:"type" jsonschema:"one of preference, fact, rule, procedure, correction, decision"`
	Content    string   `json:"content" jsonschema:"concise, actionable statement of the knowledge"`
	Confidence float64  `json:"confidence" jsonschema:"1.0 for explicit user statements, 0.7-0.9 for strong implications, 0.5-0.7 for weak signals"`
	Evidence   string   `json:"evidence" jsonschema:"the specific transcript text that supports this"`
	Entities   []string `json:"entities" jsonschema:"technologies, tools, libraries, patterns mentioned"`
}

// Extraction is a model's whole answer.
type Extraction struct {
	Items []Item `json:"items"`
}

// MaxTurnChars bounds each turn's text in a model prompt, so one pasted log
// cannot blow the context window.
const MaxTurnChars = 4000

// FormatTranscript renders turns for a model prompt, the plan's format:
// "[USER]: …" / "[ASSISTANT]: …" with tool calls (input cut to 150 bytes);
// each turn's text is cut to MaxTurnChars characters.
func FormatTranscript(turns []learn.Turn) string {
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString("\n\n")
		}
		text := t.Content
		if r := []rune(text); len(r) > MaxTurnChars {
			text = string(r[:MaxTurnChars]) + " […]"
		}
		fmt.Fprintf(&b, "[%s]: %s", strings.ToUpper(string(t.Role)), text)
		for _, u := range t.ToolUse {
			in := u.Input
			if len(in) > 150 {
				in = in[:150]
			}
			fmt.Fprintf(&b, "\n  [TOOL: %s — %s]", u.Name, in)
		}
	}
	return b.String()
}

// Entries converts items into entries: items [CheckItem] refuses (an
// unknown type, no content, a confidence outside [0, 1]) are dropped, and
// id, source and time are filled.
func Entries(items []Item, source string, now time.Time) []learn.Entry {
	var out []learn.Entry
	for _, it := range items {
		t := learn.KnowledgeType(strings.ToLower(strings.TrimSpace(it.Type)))
		content := strings.TrimSpace(it.Content)
		if CheckItem(it) != nil {
			continue
		}
		ents := it.Entities
		if ents == nil {
			ents = []string{}
		}
		out = append(out, learn.Entry{
			ID: newID(), Type: t, Content: content, Confidence: it.Confidence,
			Entities: ents, Evidence: strings.TrimSpace(it.Evidence), Source: source,
			ExtractedAt: now.UTC().Format(time.RFC3339),
		})
	}
	return out
}

// newID is the store's id: random, so a short prefix names one entry.
func newID() string { return knowledge.NewID() }
