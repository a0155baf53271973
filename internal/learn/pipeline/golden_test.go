package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the current code")

// goldenOut is what the pipeline makes of one transcript: the turns and
// statistics of the reader, and the heuristic run over them (dry run into
// an empty store; entry ids, random, are blanked).
type goldenOut struct {
	Turns  []learn.Turn     `json:"turns"`
	Reader transcript.Stats `json:"reader"`
	Stats  learn.Stats      `json:"stats"`
	Result []learn.Entry    `json:"entries"`
	Forget []ForgetRequest  `json:"forgets,omitempty"`
}

// goldenInputs are the reader's fixtures plus small versions of the
// benchmark transcripts, each read with and without sidechains.
func goldenInputs(t *testing.T) map[string]string {
	t.Helper()
	in := map[string]string{}
	fixtures, err := filepath.Glob("../transcript/testdata/*.jsonl")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("fixtures: %v (%d)", err, len(fixtures))
	}
	for _, f := range fixtures {
		in[strings.TrimSuffix(filepath.Base(f), ".jsonl")] = f
	}
	in["bench-300k"] = writeBenchTranscript(t, 300<<10)
	in["huge-line-64k"] = writeHugeLine(t, 64<<10)
	return in
}

// TestGoldenEquivalence checks that reading, classifying, extracting and
// deduplicating the fixtures gives exactly what it gave before the
// performance work (testdata/golden, written by the code of the branch
// point with -update-golden): the fast paths change no answer.
func TestGoldenEquivalence(t *testing.T) {
	for name, path := range goldenInputs(t) {
		for _, side := range []bool{false, true} {
			key := name
			if side {
				key += "+sidechain"
			}
			t.Run(key, func(t *testing.T) {
				got := goldenRun(t, path, side)
				file := filepath.Join("testdata", "golden", key+".json")
				if *updateGolden {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: output differs from the golden file (%d vs %d bytes); first difference near byte %d",
						key, len(got), len(want), firstDiff(got, want))
				}
			})
		}
	}
}

func goldenRun(t *testing.T, path string, sidechain bool) []byte {
	t.Helper()
	opts := &transcript.Options{IncludeSidechain: sidechain}
	turns, rst, err := transcript.ReadFile(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunTurns(context.Background(), turns, "session:golden", Options{Store: newStore(t), DryRun: true, Now: fixedNow,
		Project: func(cwd string) string { return cwd }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Entries {
		res.Entries[i].ID = ""
	}
	out := goldenOut{Turns: turns, Reader: rst, Stats: res.Stats, Result: res.Entries, Forget: res.AmbiguousForgets}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
