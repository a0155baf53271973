// Package pipeline runs shadow learning over transcripts: read → redact →
// classify → extract (in chunks) → dedup → store → render knowledge.md;
// and, beside it, the tool trail: commands, edits and MCP calls mined by
// [trail.Mine] into procedures and facts of the transcript's project
// (internal/project.Resolve of each turn's cwd), merged into the store by
// [trail.Merge] (a repeated behaviour updates its entry's evidence and
// confidence; a forgotten one is not learned again).
//
// A transcript already extracted in the same state (path, size and
// modification time, see [knowledge.TranscriptKey]) is skipped unless
// [Options.Force] is set. Duplicates are filtered against the whole store
// (forgotten and superseded entries included, so forgotten knowledge is not
// re-learned) and within the run. "@forget …" turns forget the matching
// active entries.
package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/classify"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/trail"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

// DefaultChunkSize is how many signal turns go to one extractor call.
const DefaultChunkSize = 20

// Options configure a run. Store is required; a nil Extractor means
// [extract.Heuristic].
type Options struct {
	Store     *knowledge.Store
	Extractor extract.Extractor
	ChunkSize int                 // 0 means DefaultChunkSize
	Force     bool                // extract even if the transcript was extracted before
	DryRun    bool                // extract and dedup, but write nothing
	Reader    *transcript.Options // nil means reader defaults
	Now       func() time.Time    // nil means time.Now
	// NoTrail turns off learning from the tool trail (commands, edits,
	// MCP calls); sentences are still learned.
	NoTrail bool
	// Project resolves a turn's cwd to its project identity; nil means
	// [project.Resolve].
	Project func(cwd string) string
}

// Result is what one transcript yielded: the new entries (after dedup) and
// the plan's statistics.
type Result struct {
	Transcript string        `json:"transcript"`
	Entries    []learn.Entry `json:"entries"`
	Stats      learn.Stats   `json:"stats"`
	// Updated are the entries learned from the tool trail before whose
	// evidence this transcript added to (their new versions).
	Updated []learn.Entry `json:"updated,omitempty"`
	// AmbiguousForgets are the "@forget" commands that named several
	// entries and so forgot none.
	AmbiguousForgets []ForgetRequest `json:"ambiguousForgets,omitempty"`
}

// Run extracts knowledge from the transcript at path into opts.Store.
func Run(ctx context.Context, path string, opts Options) (Result, error) {
	res := Result{Transcript: path, Entries: []learn.Entry{}}
	key, fi, err := knowledge.TranscriptKey(path)
	if err != nil {
		return res, fmt.Errorf("transcript %s: %w", path, err)
	}
	if !opts.Force {
		done, err := opts.Store.IsProcessed(key)
		if err != nil {
			return res, err
		}
		if done {
			res.Stats.AlreadyExtracted = true
			return res, nil
		}
	}
	turns, rst, err := readSession(path, opts.Reader)
	if err != nil {
		return res, err
	}
	res, err = runTurns(ctx, turns, Source(path), opts, func(res Result) knowledge.Processed {
		return knowledge.Processed{
			Key: key, Path: key[:strings.IndexByte(key, 0)], Size: fi.Size(), ModTime: fi.ModTime().UTC().Format(time.RFC3339Nano),
			ExtractedAt: now(opts).UTC().Format(time.RFC3339), Entries: len(res.Entries),
		}
	})
	res.Transcript = path
	res.Stats.MalformedLines = rst.Malformed
	return res, err
}

// ExtractError is returned when the extractor (the model) fails.
type ExtractError struct {
	Source, Extractor string
	Err               error
}

// Error names the transcript, the extractor and the cause.
func (e *ExtractError) Error() string {
	return fmt.Sprintf("extract %s with %s: %v", e.Source, e.Extractor, e.Err)
}

// Unwrap returns the extractor's error.
func (e *ExtractError) Unwrap() error { return e.Err }

// Source names a transcript file in entries: "session:<base name>".
func Source(path string) string {
	return "session:" + strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

func now(o Options) time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// RunTurns runs classify → extract → dedup → store on turns already read.
// Each user turn is cut to its bounded prefix and redacted first, then
// classified once ([classify.Analyze]); an extractor that takes analyses
// ([extract.AnalysedExtractor]: the heuristics, auto) reuses them instead
// of reading the text again.
func RunTurns(ctx context.Context, turns []learn.Turn, source string, opts Options) (Result, error) {
	return runTurns(ctx, turns, source, opts, nil)
}

// runTurns is [RunTurns]; mark, when set, gives the processed record that
// is stored with the entries (Run's).
func runTurns(ctx context.Context, turns []learn.Turn, source string, opts Options, mark func(Result) knowledge.Processed) (Result, error) {
	res := Result{Entries: []learn.Entry{}}
	x := opts.Extractor
	if x == nil {
		x = extract.Heuristic{Now: opts.Now}
	}
	size := opts.ChunkSize
	if size <= 0 {
		size = DefaultChunkSize
	}
	p := prepare(turns)
	signal, forgets := p.signals()
	res.Stats.TurnsProcessed = len(turns)
	res.Stats.SignalTurns = len(signal)
	res.Stats.NoiseTurns = len(turns) - len(signal)

	extracted, err := extractChunks(ctx, x, p, signal, size, source)
	if err != nil {
		return res, err
	}
	res.Stats.EntriesExtracted = len(extracted)

	dedup := deduper(extracted, &res)
	var mined []trail.Candidate
	if !opts.NoTrail {
		mined = trail.Mine(turns) // reads only the assistant turns, which are as read
	}
	merge := trailMerger(turns, mined, source, opts)
	if opts.DryRun {
		existing, err := opts.Store.Entries()
		if err != nil {
			return res, err
		}
		ids, ambiguous := Forgettable(knowledge.ActiveOnly(existing), forgets)
		res.Stats.EntriesForgotten, res.AmbiguousForgets = len(ids), ambiguous
		addTrail(&res, merge(existing))
		res.Entries = append(res.Entries, dedup(existing)...)
		return res, nil
	}
	err = opts.Store.Batch(func(b *knowledge.Batch) error {
		if err := storeTrail(b, &res, merge); err != nil {
			return err
		}
		if err := store(b, &res, dedup, forgets); err != nil {
			return err
		}
		if mark != nil {
			b.MarkProcessed(mark(res))
		}
		return nil
	})
	return res, err
}

// deduper returns the function that keeps the entries of extracted
// (redacted) that repeat none of existing nor each other, counting the
// others in res.
func deduper(extracted []learn.Entry, res *Result) func(existing []learn.Entry) []learn.Entry {
	return func(existing []learn.Entry) []learn.Entry {
		idx := knowledge.NewIndex(existing)
		var fresh []learn.Entry
		res.Stats.DuplicatesSkipped = 0
		for _, e := range extracted {
			r := knowledge.RedactEntry(e)
			if !idx.AddNew(r) {
				res.Stats.DuplicatesSkipped++
				continue
			}
			fresh = append(fresh, r)
		}
		return fresh
	}
}

// extractChunks runs x over the signal turns in chunks of size, each with
// its neighbouring assistant turns (bounded and redacted here; user turns
// are already), handing an [extract.AnalysedExtractor] the analyses.
func extractChunks(ctx context.Context, x extract.Extractor, p *prepared, signal []int, size int, source string) ([]learn.Entry, error) {
	ax, analysed := x.(extract.AnalysedExtractor)
	extracted := make([]learn.Entry, 0, len(signal)) // about one entry a signal turn
	for start := 0; start < len(signal); start += size {
		if err := ctx.Err(); err != nil {
			return extracted, err
		}
		idx := WithContextIndexes(p.turns, signal[start:min(start+size, len(signal))])
		chunk, chunkAnalyses := make([]learn.Turn, len(idx)), make([]classify.Analysis, len(idx))
		for j, i := range idx {
			chunk[j], chunkAnalyses[j] = p.turn(i), p.analysis(i)
			if chunk[j].Role != learn.User { // user turns are bounded and redacted already
				chunk[j].Content = classify.Bound(chunk[j].Content)
				chunk[j] = knowledge.RedactTurn(chunk[j]) // nothing private reaches an extractor
			}
		}
		var es []learn.Entry
		var err error
		if analysed {
			es, err = ax.ExtractAnalysed(ctx, chunk, chunkAnalyses, source)
		} else {
			es, err = x.Extract(ctx, chunk, source)
		}
		if err != nil {
			return extracted, &ExtractError{Source: source, Extractor: x.Name(), Err: err}
		}
		extracted = append(extracted, es...)
	}
	return extracted, nil
}

// store dedups and appends within the batch b (under the store's lock,
// see [knowledge.Store.Batch]), then applies forgets and supersedes and
// asks for knowledge.md.
func store(s *knowledge.Batch, res *Result, dedup func([]learn.Entry) []learn.Entry, forgets []string) error {
	stored, existing, err := s.AppendNew(dedup)
	if err != nil {
		return err
	}
	res.Entries = append(res.Entries, stored...)
	active := knowledge.ActiveOnly(existing)
	forgotten, ambiguous := Forgettable(active, forgets)
	res.Stats.EntriesForgotten, res.AmbiguousForgets = len(forgotten), ambiguous
	for _, id := range forgotten {
		if _, err := s.Forget(id); err != nil {
			return err
		}
	}
	for _, pair := range Superseded(active, stored) {
		if err := s.Supersede(pair[0], pair[1]); err != nil {
			return err
		}
		res.Stats.EntriesSuperseded++
	}
	return s.WriteMarkdown()
}

// Superseded returns the {old id, new id} pairs where a new entry
// supersedes an active one ([knowledge.Supersedes]); each old entry is
// superseded at most once, by the first new entry that qualifies.
func Superseded(active, fresh []learn.Entry) [][2]string {
	var out [][2]string
	for _, old := range active {
		for _, e := range fresh {
			if knowledge.Supersedes(e, old) {
				out = append(out, [2]string{old.ID, e.ID})
				break
			}
		}
	}
	return out
}

// Classify returns the indexes of the signal turns of turns (forget
// commands excluded) and the texts of its "@forget" commands.
func Classify(turns []learn.Turn) (signal []int, forgets []string) {
	analyses := make([]classify.Analysis, len(turns))
	for i, t := range turns {
		analyses[i] = classify.Analyze(t)
	}
	for i, a := range analyses {
		signal, forgets = addSignal(signal, forgets, i, a.Classification)
	}
	return signal, forgets
}

// addSignal adds turn i, classified c, to what [Classify] returns: its
// index when it is a signal, its text when it is an "@forget" command.
func addSignal(signal []int, forgets []string, i int, c learn.Classification) ([]int, []string) {
	switch {
	case c.Type == learn.SignalForget:
		if c.Match != "" {
			forgets = append(forgets, c.Match)
		}
	case classify.IsSignal(c):
		signal = append(signal, i)
	}
	return signal, forgets
}

// WithContext returns the turns at the signal indexes together with the
// assistant turn before and after each (what the user answered and how the
// assistant responded), in transcript order, each turn once: the
// extractors' [extract.WithContext].
func WithContext(turns []learn.Turn, signal []int) []learn.Turn {
	return extract.WithContext(turns, signal)
}

// WithContextIndexes is [WithContext] as indexes into turns.
func WithContextIndexes(turns []learn.Turn, signal []int) []int {
	return extract.ContextIndexes(turns, signal)
}

// ForgetRequest is an "@forget" command that named several entries: it
// forgets nothing until the user picks (paige learn forget <id>, or the
// text again with confirmation).
type ForgetRequest struct {
	Request    string        `json:"request"`
	Candidates []learn.Entry `json:"candidates"`
}

// Forgettable returns the ids of the active entries that "@forget <text>"
// commands name exactly ([knowledge.Named]: every named word is a whole word
// of the entry; "@forget it" names nothing), and the commands that named
// more than one entry, which forget nothing and list their candidates.
func Forgettable(active []learn.Entry, forgets []string) (ids []string, ambiguous []ForgetRequest) {
	seen := map[string]bool{}
	for _, f := range forgets {
		hits := knowledge.Named(active, f)
		switch {
		case len(hits) > 1:
			ambiguous = append(ambiguous, ForgetRequest{Request: f, Candidates: hits})
		case len(hits) == 1 && !seen[hits[0].ID]:
			seen[hits[0].ID] = true
			ids = append(ids, hits[0].ID)
		}
	}
	return ids, ambiguous
}
