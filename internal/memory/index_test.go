package memory

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// scoreReference scores rows without blocks or the non-zero column list:
// one pass per query column, s[i] += q[j]·cols[j][lo+i].
func scoreReference(x *index, s []float32, q []float32, lo int) {
	clear(s)
	for j, qj := range q {
		if qj == 0 {
			continue
		}
		for i, v := range x.cols[j][lo : lo+len(s)] {
			s[i] += qj * v
		}
	}
}

// searchReference is the exact search without blocks or workers:
// every row scored by scoreReference, filtered, sorted by better, cut at k.
func searchReference(x *index, q []float32, k int, project string) []hit {
	if len(x.rows) == 0 || k <= 0 || len(q) != x.dims {
		return nil
	}
	s := make([]float32, len(x.rows))
	scoreReference(x, s, q, 0)
	var all []hit
	for i, sim := range s {
		if project == "" || x.rows[i].Metadata.Project == project {
			all = append(all, hit{row: i, sim: sim})
		}
	}
	slices.SortFunc(all, func(a, b hit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	if len(all) == 0 {
		return nil
	}
	return all[:min(k, len(all))]
}

// sameFloats reports whether a and b hold the same float32 bits (any NaN
// matching any NaN).
func sameFloats(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool {
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	})
}

// edgeValue draws from values that stress rounding: zeros of both signs,
// subnormals, large and tiny magnitudes, repeated values. With inf it adds
// infinities and values whose products overflow; without, sums of up to 64
// products stay finite (no NaN score, which no order ranks).
func edgeValue(r *rand.Rand, inf bool) float32 {
	big := 1e15
	if inf {
		big = 1e30
	}
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return math.SmallestNonzeroFloat32 * float32(r.IntN(5)-2)
	case 3:
		return float32(r.NormFloat64() * big)
	case 4:
		if inf {
			return float32(math.Inf(r.IntN(2)*2 - 1))
		}
		return 1
	case 5:
		return 0.1
	}
	return float32(r.NormFloat64())
}

// randomIndex builds an index of n rows over dims dimensions and projects
// projects. With ties, values come from a handful of exact steps so many rows
// share a score; clustered rows arrive in runs of one project (as sessions
// add them), otherwise projects are interleaved at random.
func randomIndex(r *rand.Rand, n, dims, projects int, ties, clustered bool) *index {
	x := newIndex()
	run, p := 0, 0
	for i := range n {
		if run == 0 {
			p, run = r.IntN(projects), 1+r.IntN(2*scoreBlock)
			if !clustered {
				run = 1
			}
		}
		run--
		v := make([]float32, dims)
		for j := range v {
			switch {
			case r.IntN(3) == 0: // sparse, like lexical vectors
			case ties:
				v[j] = float32(r.IntN(5)-2) / 4
			default:
				v[j] = edgeValue(r, false)
			}
		}
		x.add(record{ID: MemoryID("s", i), Metadata: Metadata{SessionID: "s", Project: fmt.Sprint("p", p)}}, v)
	}
	return x
}

// checkSearch compares search with searchReference for random queries.
func checkSearch(t *testing.T, r *rand.Rand, x *index, projects int, ties bool) {
	t.Helper()
	for range 6 {
		q := make([]float32, x.dims)
		for j := range q {
			switch {
			case r.IntN(2) == 0:
			case ties:
				q[j] = float32(r.IntN(3)-1) / 2
			default:
				q[j] = edgeValue(r, false)
			}
		}
		k := 1 + r.IntN(40)
		for _, project := range []string{"", fmt.Sprint("p", r.IntN(projects))} {
			got, want := x.search(q, k, project), searchReference(x, q, k, project)
			if !slices.EqualFunc(got, want, func(a, b hit) bool {
				return a.row == b.row && sameFloats([]float32{a.sim}, []float32{b.sim})
			}) {
				t.Fatalf("rows=%d k=%d project=%q: got %v, want %v", len(x.rows), k, project, got, want)
			}
		}
	}
}

// FuzzSearchMatchesReference: the block-skipping, parallel search
// answers exactly what the scalar full scan answers (same rows, same float32
// scores, same order of ties), on random stores and queries.
func FuzzSearchMatchesReference(f *testing.F) {
	f.Add(uint64(1), uint16(3000), uint8(20), uint8(3), true, true)
	f.Add(uint64(2), uint16(5000), uint8(9), uint8(40), false, true)
	f.Add(uint64(3), uint16(1), uint8(1), uint8(1), false, false)
	f.Add(uint64(4), uint16(2100), uint8(17), uint8(25), true, false)
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, dims, projects uint8, ties, clustered bool) {
		r := rand.New(rand.NewPCG(seed, seed))
		np := 1 + int(projects)%40
		x := randomIndex(r, int(n)%6000, 1+int(dims)%40, np, ties, clustered)
		checkSearch(t, r, x, np, ties)
	})
}

// TestSearchParallelMatchesReference covers the fan-out over workers, whose
// ranges split at block boundaries, and appends after a search.
func TestSearchParallelMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	x := randomIndex(r, parallelMin+2500, 24, 30, true, true)
	checkSearch(t, r, x, 30, true)
	more := randomIndex(r, 3*scoreBlock+7, 24, 30, false, false)
	for i, row := range more.rows {
		v := make([]float32, more.dims)
		for j := range v {
			v[j] = more.cols[j][i]
		}
		x.add(row, v)
	}
	checkSearch(t, r, x, 30, false)
}

// TestBlockProjects: a block lists its projects until it has more than
// maxBlockProjects, then holds every project.
func TestBlockProjects(t *testing.T) {
	var b blockProjects
	for p := range int32(maxBlockProjects) {
		b.add(p)
		b.add(p)
	}
	if b.many || len(b.ps) != maxBlockProjects || !b.has(3) || b.has(maxBlockProjects) {
		t.Fatalf("after %d projects: %+v", maxBlockProjects, b)
	}
	b.add(maxBlockProjects)
	if !b.many || !b.has(1000) {
		t.Fatalf("past the limit: %+v", b)
	}
}
