package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
)

// referenceQuery answers q by brute force over the stored memories: every
// memory embedded again, scored by the scalar dot product in dimension order,
// nearest first, ties in insertion order (every memory here shares one
// created_at, so ListMemories lists them newest row first).
func referenceQuery(t *testing.T, s *memory.Embedded, emb *embedding.Lexical, q memory.Query) []memory.Result {
	t.Helper()
	all, err := s.ListMemories(context.Background(), q.Project)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(all)
	qv := emb.Vector(q.Text)
	sims := make([]float32, len(all))
	for i, r := range all {
		v := emb.Vector(r.Content)
		for j, x := range qv {
			if x != 0 {
				sims[i] += x * v[j]
			}
		}
		all[i].Distance = max(0, 1-float64(sims[i]))
	}
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case sims[a] > sims[b]:
			return -1
		case sims[a] < sims[b]:
			return 1
		}
		return 0
	})
	n := q.NResults
	if n == 0 {
		n = memory.DefaultNResults
	}
	out := []memory.Result{}
	for _, i := range order[:min(n, len(order))] {
		out = append(out, all[i])
	}
	return out
}

// TestEmbeddedQueryMatchesReferenceThroughEdits: after adds, updates and
// deletes (which reload the index) every query answers exactly what the brute
// force over the database answers, including the order of exact ties
// (repeated contents).
func TestEmbeddedQueryMatchesReferenceThroughEdits(t *testing.T) {
	ctx := context.Background()
	emb := embedding.NewLexical(0)
	s := openEmbedded(t, filepath.Join(t.TempDir(), "memory.db"), emb, nil)
	r := rand.New(rand.NewPCG(9, 9))
	text := func() string {
		words := make([]string, 2+r.IntN(6))
		for i := range words {
			words[i] = benchVocab[r.IntN(len(benchVocab))]
		}
		return strings.Join(words, " ")
	}
	addBatch := func(session string) {
		ms := make([]memory.Memory, 300)
		for i := range ms {
			ms[i] = memory.Memory{Content: text()}
			if i%7 == 0 {
				ms[i].Content = "oauth callback race" // exact ties
			}
		}
		add(t, s, session, fmt.Sprint("project-", r.IntN(3)), ms...)
	}
	check := func(step string) {
		for _, q := range []memory.Query{
			{Text: "race condition in the oauth callback"},
			{Text: "oauth callback race", NResults: 30},
			{Text: "react hook effect cleanup", Project: "project-1", NResults: 50},
			{Text: text(), Project: "project-2"},
			{Text: ""},
		} {
			got := query(t, s, q)
			if diff := cmp.Diff(referenceQuery(t, s, emb, q), got); diff != "" {
				t.Fatalf("%s, query %+v (-want +got):\n%s", step, q, diff)
			}
		}
	}
	for i := range 5 {
		addBatch(fmt.Sprint("s", i))
	}
	check("after adds")
	for i := range 20 {
		id := fmt.Sprint("mem_s", i%5, "_", r.IntN(300))
		if _, err := s.UpdateMemory(ctx, id, "oauth callback race condition "+text()); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteMemory(ctx, fmt.Sprint("mem_s", (i+2)%5, "_", i*13)); err != nil {
			t.Fatal(err)
		}
	}
	check("after updates and deletes")
	addBatch("s5")
	check("after adding again")
}
