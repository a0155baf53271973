package memory

import (
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/redact"
)

// ErrNoSession is returned by AddMemories without a session id.
var ErrNoSession = errors.New("memory: session id is required")

// Options are the optional dependencies of a backend. A nil *Options is valid.
type Options struct {
	Logger *slog.Logger     // nil: discard
	Now    func() time.Time // nil: time.Now; stamps created_at
	// ChromaDatabase is the Chroma database (tenant default_tenant); empty
	// means default_database.
	ChromaDatabase string
}

func (o *Options) logger() *slog.Logger {
	if o == nil || o.Logger == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o.Logger
}

func (o *Options) now() func() time.Time {
	if o == nil || o.Now == nil {
		return time.Now
	}
	return o.Now
}

// JoinTags joins tags with commas after stripping commas inside each tag and
// trimming spaces; empty tags are dropped (FR-107, EC-50).
func JoinTags(tags []string) string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.TrimSpace(strings.ReplaceAll(t, ",", " "))
		t = strings.Join(strings.Fields(t), " ")
		if t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, ",")
}

// Importance normalises an importance level: high, medium or low; anything
// else (including empty) is medium.
func Importance(s string) string {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "high", "low", "medium":
		return s
	}
	return "medium"
}

// MemoryID returns mem_{sessionID}_{index}.
func MemoryID(sessionID string, index int) string {
	return "mem_" + sessionID + "_" + strconv.Itoa(index)
}

// NextIndex returns the first free index for sessionID given the ids that
// already exist: one past the highest mem_{sessionID}_{n}, 0 when none.
// Ids of other sessions (even ones whose id is a prefix) are ignored.
func NextIndex(sessionID string, ids []string) int {
	prefix := "mem_" + sessionID + "_"
	next := 0
	for _, id := range ids {
		rest, ok := strings.CutPrefix(id, prefix)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || strconv.Itoa(n) != rest {
			continue
		}
		next = max(next, n+1)
	}
	return next
}

// record is a memory ready to store.
type record struct {
	ID       string
	Content  string
	Metadata Metadata
}

// buildRecords turns memories into records numbered from first, all stamped
// createdAt. Content and tags are redacted ([redact.String]) here, the one
// way into both backends, so neither the stored text nor its embedding
// holds a secret.
func buildRecords(sessionID, project, createdAt string, first int, memories []Memory) []record {
	out := make([]record, len(memories))
	for i, m := range memories {
		out[i] = record{
			ID:      MemoryID(sessionID, first+i),
			Content: redact.String(m.Content),
			Metadata: Metadata{
				SessionID:  sessionID,
				Project:    project,
				CreatedAt:  createdAt,
				Importance: Importance(m.Importance),
				Tags:       redact.String(JoinTags(m.Tags)),
			},
		}
	}
	return out
}

// nResults applies the default and the cap.
func nResults(n int) int {
	switch {
	case n <= 0:
		return DefaultNResults
	case n > MaxNResults:
		return MaxNResults
	}
	return n
}

// contents returns the records' contents, for embedding.
func contents(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Content
	}
	return out
}
