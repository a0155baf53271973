package memory

import (
	"runtime"
	"slices"
	"sync"
)

// parallelMin is the row count from which a search fans out over CPUs.
const parallelMin = 16384

// index is the embedded backend's in-memory search structure: every vector
// in one contiguous float32 slab, row i at vecs[i*dims:(i+1)*dims]. It is not
// safe for concurrent mutation; Embedded guards it.
type index struct {
	dims     int
	vecs     []float32
	projects []int32 // project number per row
	rows     []record
	projNum  map[string]int32
	maxIdx   map[string]int // session → next free memory index
}

func newIndex() *index {
	return &index{projNum: map[string]int32{}, maxIdx: map[string]int{}}
}

// add appends a record with its vector; the first vector fixes dims.
func (x *index) add(r record, vec []float32) {
	if x.dims == 0 {
		x.dims = len(vec)
	}
	p, ok := x.projNum[r.Metadata.Project]
	if !ok {
		p = int32(len(x.projNum))
		x.projNum[r.Metadata.Project] = p
	}
	x.vecs = append(x.vecs, vec...)
	x.projects = append(x.projects, p)
	x.rows = append(x.rows, r)
	x.maxIdx[r.Metadata.SessionID] = max(x.maxIdx[r.Metadata.SessionID], NextIndex(r.Metadata.SessionID, []string{r.ID}))
}

// hit is a search match: row number and similarity (dot product).
type hit struct {
	row int
	sim float32
}

// better orders hits: higher similarity first, then earlier rows.
func better(a, b hit) bool {
	return a.sim > b.sim || a.sim == b.sim && a.row < b.row
}

// search returns the k rows most similar to q (unit vector), best first,
// only rows of project when project is non-empty.
func (x *index) search(q []float32, k int, project string) []hit {
	n := len(x.rows)
	if n == 0 || k <= 0 || len(q) != x.dims {
		return nil
	}
	want := int32(-1)
	if project != "" {
		p, ok := x.projNum[project]
		if !ok {
			return nil
		}
		want = p
	}
	workers := 1
	if n >= parallelMin {
		workers = min(runtime.GOMAXPROCS(0), n/parallelMin+1)
	}
	parts := make([][]hit, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = x.scan(q, k, want, lo, hi)
		}()
	}
	wg.Wait()
	all := slices.Concat(parts...)
	slices.SortFunc(all, func(a, b hit) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return all[:min(k, len(all))]
}

// scan returns the top k hits of rows [lo, hi), unordered.
func (x *index) scan(q []float32, k int, project int32, lo, hi int) []hit {
	top := make([]hit, 0, k) // kept sorted best first
	d := x.dims
	for i := lo; i < hi; i++ {
		if project >= 0 && x.projects[i] != project {
			continue
		}
		s := dot(q, x.vecs[i*d:(i+1)*d])
		h := hit{row: i, sim: s}
		if len(top) == k && !better(h, top[k-1]) {
			continue
		}
		pos, _ := slices.BinarySearchFunc(top, h, func(a, b hit) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		if len(top) < k {
			top = append(top, hit{})
		}
		copy(top[pos+1:], top[pos:len(top)-1])
		top[pos] = h
	}
	return top
}

// dot returns the dot product of a and b (len(b) ≥ len(a)), four lanes at a
// time.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
