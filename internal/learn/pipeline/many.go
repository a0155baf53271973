package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Expand turns inputs (files, directories searched recursively for
// *.jsonl, and glob patterns) into a sorted list of distinct transcript
// paths. An input that names nothing is an error. A subagent transcript
// found in a directory (<session>/subagents/*.jsonl beside <session>.jsonl)
// is not listed: it is read with its session ([Run]).
func Expand(inputs []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, in := range inputs {
		matches := []string{in}
		if strings.ContainsAny(in, "*?[") {
			m, err := filepath.Glob(in)
			if err != nil {
				return nil, fmt.Errorf("bad pattern %q: %w", in, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("no transcripts match %q", in)
			}
			matches = m
		}
		for _, p := range matches {
			fi, err := os.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("transcript %s: %w", p, err)
			}
			if !fi.IsDir() {
				add(p)
				continue
			}
			err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
					if sub, _ := isSubagentFile(path); !sub {
						add(path)
					}
				}
				return err
			})
			if err != nil {
				return nil, err
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// FileError is a transcript that could not be extracted.
type FileError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Summary is the outcome of [RunMany].
type Summary struct {
	Files   int           `json:"files"`
	Skipped int           `json:"skipped"` // already extracted
	Failed  []FileError   `json:"failed"`
	Stats   learn.Stats   `json:"stats"`
	Entries []learn.Entry `json:"entries"`
	// AmbiguousForgets are "@forget" commands that named several entries
	// and forgot none.
	AmbiguousForgets []ForgetRequest `json:"ambiguousForgets,omitempty"`
	// Updated are the new versions of entries learned from the tool trail
	// whose evidence grew (see [Result.Updated]).
	Updated []learn.Entry `json:"updated,omitempty"`
}

// RunMany runs [Run] on every path in order. A transcript that fails is
// recorded in Summary.Failed and the run goes on; only a cancelled ctx
// stops it. after, if non-nil, is called after each transcript.
func RunMany(ctx context.Context, paths []string, opts Options, after func(Result, error)) (Summary, error) {
	sum := Summary{Failed: []FileError{}, Entries: []learn.Entry{}}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		res, err := Run(ctx, p, opts)
		sum.Files++
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			sum.Failed = append(sum.Failed, FileError{Path: p, Error: err.Error()})
		case res.Stats.AlreadyExtracted:
			sum.Skipped++
		}
		sum.Stats.Add(res.Stats)
		sum.Entries = append(sum.Entries, res.Entries...)
		sum.Updated = append(sum.Updated, res.Updated...)
		sum.AmbiguousForgets = append(sum.AmbiguousForgets, res.AmbiguousForgets...)
		if after != nil {
			after(res, err)
		}
	}
	return sum, nil
}
