package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

var benchVocab = strings.Fields(`oauth callback race condition token session redirect css grid layout flexbox
react hook effect cleanup state reducer context provider goroutine channel mutex deadlock sql index query join
migration transaction cache eviction retry backoff timeout websocket stream parser lexer test fixture mock
closure async await promise error boundary render memo selector router middleware handler auth cookie`)

// fillStore adds n generated memories (batches of 1000) across 10 projects.
func fillStore(b *testing.B, s memory.Store, n int) {
	b.Helper()
	r := rand.New(rand.NewPCG(42, 42))
	for start := 0; start < n; start += 1000 {
		batch := make([]memory.Memory, 0, 1000)
		for range min(1000, n-start) {
			words := make([]string, 8+r.IntN(8))
			for i := range words {
				words[i] = benchVocab[r.IntN(len(benchVocab))]
			}
			batch = append(batch, memory.Memory{Content: strings.Join(words, " "), Tags: []string{words[0]}})
		}
		project := fmt.Sprint("project-", start/1000%10)
		if _, err := s.AddMemories(context.Background(), fmt.Sprint("sess-", start/1000), project, batch); err != nil {
			b.Fatal(err)
		}
	}
}

// benchMemories is the benchmarks' store size: 100,000, or with -short
// 10,000 (fillStore's smallest size that still spreads over its 10 projects).
func benchMemories() int {
	if testing.Short() {
		return 10_000
	}
	return 100_000
}

// BenchmarkQuery100k measures one QueryMemories (embedding the query plus a
// brute-force scan) over 100,000 memories in the embedded store (10,000 with
// -short, which `make bench-report`'s short mode uses to check that the
// benchmark still runs). Budget (issue 24): ≤ 5 ms per query.
func BenchmarkQuery100k(b *testing.B) {
	s, err := memory.OpenEmbedded(context.Background(), filepath.Join(b.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fillStore(b, s, benchMemories())
	for _, q := range []memory.Query{
		{Text: "race condition in the oauth callback"},
		{Text: "race condition in the oauth callback", Project: "project-3"},
	} {
		name := "all"
		if q.Project != "" {
			name = "project"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start, n := testenv.CPUTime(), 0
			for b.Loop() {
				rs, err := s.QueryMemories(context.Background(), q)
				if err != nil || len(rs) != memory.DefaultNResults {
					b.Fatalf("got %d results, %v", len(rs), err)
				}
				n++
			}
			// CPU time per query: meaningful when other processes share the machine.
			b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}
