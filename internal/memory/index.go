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
// dense query costs the same as a row scan. Rows are scored a block at a
// time, and a project search skips the blocks that hold none of its rows. It
// is not safe for concurrent mutation; Embedded guards it.
type index struct {
	dims     int
	cols     [][]float32     // dims columns of len(rows) values
	projects []int32         // project number per row
	blocks   []blockProjects // per score block: the projects of its rows
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
	if len(x.rows)%scoreBlock == 0 {
		x.blocks = append(x.blocks, blockProjects{})
	}
	x.blocks[len(x.blocks)-1].add(p)
	x.projects = append(x.projects, p)
	x.rows = append(x.rows, r)
	x.maxIdx[r.Metadata.SessionID] = max(x.maxIdx[r.Metadata.SessionID], NextIndex(r.Metadata.SessionID, []string{r.ID}))
}

// maxBlockProjects is how many distinct projects a block tracks; a block with
// more is scored for every project.
const maxBlockProjects = 16

// blockProjects is the set of projects with a row in one score block, so a
// project search skips the blocks that hold none of its rows (memories are
// added a session at a time, so a project's rows cluster).
type blockProjects struct {
	many bool    // more than maxBlockProjects: holds every project
	ps   []int32 // the projects, when !many
}

func (b *blockProjects) has(p int32) bool { return b.many || slices.Contains(b.ps, p) }

func (b *blockProjects) add(p int32) {
	switch {
	case b.has(p):
	case len(b.ps) == maxBlockProjects:
		b.many, b.ps = true, nil
	default:
		b.ps = append(b.ps, p)
	}
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
	workers := 1
	if n >= parallelMin {
		workers = min(runtime.GOMAXPROCS(0), n/parallelMin+1)
	}
	blocks := (n + scoreBlock - 1) / scoreBlock
	parts := make([][]hit, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := blocks*w/workers, blocks*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = x.scan(lo, hi, q, nz, k, want)
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

// scoreBlock is how many rows are scored per pass over the query's columns:
// their scores (4 KB) stay in L1 cache while the columns stream by. Blocks
// start at multiples of scoreBlock.
const scoreBlock = 1024

// scan returns the k best hits among the blocks lo..hi-1, only rows of
// project when project ≥ 0, best first. A block holding no row of project is
// not scored at all.
func (x *index) scan(lo, hi int, q []float32, nz []int, k int, project int32) []hit {
	var buf [scoreBlock]float32
	top := make([]hit, 0, k) // kept sorted best first
	for b := lo; b < hi; b++ {
		if project >= 0 && !x.blocks[b].has(project) {
			continue
		}
		first := b * scoreBlock
		s := buf[:min(scoreBlock, len(x.rows)-first)]
		x.score(s, q, nz, first)
		top = x.top(top, s, k, project, first)
	}
	return top
}

// score sets s[i] to the dot product of q and row lo+i, visiting only the
// columns in nz: one pass per column, s[i] += q[j]·cols[j][lo+i].
func (x *index) score(s []float32, q []float32, nz []int, lo int) {
	clear(s)
	for _, j := range nz {
		a, c := q[j], x.cols[j][lo:lo+len(s)]
		for i := range s {
			s[i] += a * c[i]
		}
	}
}

// top merges the hits among scores s of rows lo.. into top (k at most, best
// first), only rows of project when project ≥ 0.
func (x *index) top(top []hit, s []float32, k int, project int32, lo int) []hit {
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
