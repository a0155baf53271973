package memory

import (
	"runtime"
	"slices"
	"sync"
)

// parallelMin is the row count from which a search fans out over CPUs.
const parallelMin = 16384

// index is the embedded backend's in-memory search structure. Vectors are
// stored column-major: cols[j][i] is dimension j of row i, each column one
// contiguous float32 slice. A query then costs one pass over the columns
// where the query is non-zero (scores[i] += q[j]·cols[j][i]): a lexical query
// of a few words touches a sixth of the data a row-major scan would, and a
// dense query costs the same as a row scan. It is not safe for concurrent
// mutation; Embedded guards it.
type index struct {
	dims     int
	cols     [][]float32 // dims columns of len(rows) values
	projects []int32     // project number per row
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
		x.cols = make([][]float32, x.dims)
	}
	p, ok := x.projNum[r.Metadata.Project]
	if !ok {
		p = int32(len(x.projNum))
		x.projNum[r.Metadata.Project] = p
	}
	for j, v := range vec {
		x.cols[j] = append(x.cols[j], v)
	}
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
	var nz []int // dimensions where q is non-zero
	for j, v := range q {
		if v != 0 {
			nz = append(nz, j)
		}
	}
	scores := scorePool.Get().(*[]float32)
	defer scorePool.Put(scores)
	if cap(*scores) < n {
		*scores = make([]float32, n)
	}
	sc := (*scores)[:n]
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
			x.score(sc[lo:hi], q, nz, lo)
			parts[w] = x.top(sc[lo:hi], k, want, lo)
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

// scorePool recycles the per-query score arrays (4 bytes per memory).
var scorePool = sync.Pool{New: func() any { return new([]float32) }}

// scoreBlock is how many rows score handles per pass over the columns: its
// scores (4 KB) stay in L1 cache while every query column streams by.
const scoreBlock = 1024

// score sets s[i] to the dot product of q and row lo+i, visiting only the
// columns in nz.
func (x *index) score(s []float32, q []float32, nz []int, lo int) {
	clear(s)
	for b := 0; b < len(s); b += scoreBlock {
		blk := s[b:min(b+scoreBlock, len(s))]
		for _, j := range nz {
			qj := q[j]
			col := x.cols[j][lo+b : lo+b+len(blk)]
			for i, v := range col {
				blk[i] += qj * v
			}
		}
	}
}

// top returns the k best hits among scores s of rows lo.., only rows of
// project when project ≥ 0, best first.
func (x *index) top(s []float32, k int, project int32, lo int) []hit {
	top := make([]hit, 0, k) // kept sorted best first
	for i, sim := range s {
		row := lo + i
		if project >= 0 && x.projects[row] != project {
			continue
		}
		h := hit{row: row, sim: sim}
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
