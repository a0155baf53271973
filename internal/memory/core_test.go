package memory

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestJoinTags(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"oauth", "race"}, "oauth,race"},
		{[]string{"a,b", " c ", "", "d,,e"}, "a b,c,d e"},
		{[]string{",", "  "}, ""},
	}
	for _, tt := range tests {
		if got := JoinTags(tt.in); got != tt.want {
			t.Errorf("JoinTags(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestImportance(t *testing.T) {
	for in, want := range map[string]string{"high": "high", " LOW ": "low", "": "medium", "urgent": "medium", "medium": "medium"} {
		if got := Importance(in); got != want {
			t.Errorf("Importance(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestNextIndex(t *testing.T) {
	tests := []struct {
		name string
		ids  []string
		want int
	}{
		{"none", nil, 0},
		{"continues", []string{"mem_s1_0", "mem_s1_1"}, 2},
		{"gaps", []string{"mem_s1_4", "mem_s1_1"}, 5},
		{"other sessions", []string{"mem_s10_7", "mem_s1x_3", "mem_s2_9"}, 0},
		{"session with underscores", []string{"mem_s1_a_3"}, 0},
		{"junk", []string{"mem_s1_", "mem_s1_-1", "mem_s1_01", "mem_s1_x"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextIndex("s1", tt.ids); got != tt.want {
				t.Errorf("NextIndex: got %d, want %d", got, tt.want)
			}
		})
	}
	if got := NextIndex("s1_a", []string{"mem_s1_a_3"}); got != 4 {
		t.Errorf("session id with underscore: got %d, want 4", got)
	}
}

func TestBuildRecords(t *testing.T) {
	got := buildRecords("s", "p", "2026-01-01T00:00:00.000Z", 3, []Memory{{Content: "c", Tags: []string{"x,y"}, Importance: "HIGH"}})
	want := record{ID: "mem_s_3", Content: "c", Metadata: Metadata{SessionID: "s", Project: "p", CreatedAt: "2026-01-01T00:00:00.000Z", Importance: "high", Tags: "x y"}}
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if nResults(0) != DefaultNResults || nResults(5) != 5 || nResults(1e6) != MaxNResults {
		t.Error("nResults default/cap wrong")
	}
}

func randomUnit(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	var n float32
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += v[i] * v[i]
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(float64(n)))
	}
	return v
}

func TestIndexSearchMatchesNaive(t *testing.T) {
	for _, n := range []int{1, 50, parallelMin + 1000} {
		r := rand.New(rand.NewPCG(1, uint64(n)))
		x := newIndex()
		for i := range n {
			p := []string{"alpha", "beta"}[i%2]
			x.add(record{ID: MemoryID("s", i), Metadata: Metadata{SessionID: "s", Project: p}}, randomUnit(r, 16))
		}
		q := randomUnit(r, 16)
		for _, project := range []string{"", "beta"} {
			var naive []hit
			for i := range n {
				if project == "" || x.rows[i].Metadata.Project == project {
					naive = append(naive, hit{row: i, sim: rowDot(x, q, i)})
				}
			}
			slices.SortFunc(naive, func(a, b hit) int {
				if better(a, b) {
					return -1
				}
				return 1
			})
			got := x.search(q, 10, project)
			want := naive[:min(10, len(naive))]
			if !slices.Equal(got, want) {
				t.Errorf("n=%d project=%q: got %v, want %v", n, project, got, want)
			}
		}
		if x.maxIdx["s"] != n {
			t.Errorf("maxIdx: got %d, want %d", x.maxIdx["s"], n)
		}
	}
	x := newIndex()
	if got := x.search([]float32{1}, 10, ""); got != nil {
		t.Errorf("empty index: got %v", got)
	}
	x.add(record{ID: "mem_s_0", Metadata: Metadata{Project: "a"}}, []float32{1, 0})
	if got := x.search([]float32{1, 0}, 10, "unknown"); got != nil {
		t.Errorf("unknown project: got %v", got)
	}
	if got := x.search([]float32{1}, 10, ""); got != nil {
		t.Errorf("wrong dims: got %v", got)
	}
}

func TestVectorCodec(t *testing.T) {
	v := []float32{0, 1.5, -2.25, 3e-8}
	if got := decodeVector(encodeVector(v)); !slices.Equal(got, v) {
		t.Errorf("round trip: got %v, want %v", got, v)
	}
}

func FuzzNextIndex(f *testing.F) {
	f.Add("s1", "mem_s1_3")
	f.Add("", "mem__0")
	f.Fuzz(func(t *testing.T, session, id string) {
		n := NextIndex(session, []string{id})
		if n < 0 {
			t.Fatalf("negative index %d", n)
		}
		if n > 0 && MemoryID(session, n-1) != id {
			t.Errorf("NextIndex(%q, %q) = %d, but %q != id", session, id, n, MemoryID(session, n-1))
		}
	})
}

// rowDot is the reference dot product of q and row i, computed in the same
// order (column by column) as index.score so results compare exactly.
func rowDot(x *index, q []float32, i int) float32 {
	var s float32
	for j := range q {
		if q[j] != 0 {
			s += q[j] * x.cols[j][i]
		}
	}
	return s
}
