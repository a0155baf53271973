package memory

import (
	"math/rand/v2"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

func benchIndex(b *testing.B, n, dims int) (*index, []float32) {
	b.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	x := newIndex()
	for i := range n {
		x.add(record{ID: MemoryID("s", i), Metadata: Metadata{SessionID: "s", Project: "p"}}, randomUnit(r, dims))
	}
	return x, randomUnit(r, dims)
}

// BenchmarkSearch100k isolates the scan from embedding and locking: a dense
// 256-dimension query over 100,000 rows (1,000 with -short).
func BenchmarkSearch100k(b *testing.B) {
	n := 100_000
	if testing.Short() {
		n = 1_000
	}
	x, q := benchIndex(b, n, 256)
	b.ResetTimer()
	start, runs := testenv.CPUTime(), 0
	for b.Loop() {
		if len(x.search(q, 10, "")) != 10 {
			b.Fatal("short result")
		}
		runs++
	}
	b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(runs), "cpu-ns/op")
}
