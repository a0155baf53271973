package memory_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// fakeChroma implements the slice of ChromaDB's HTTP API v2 Paige uses, with
// cosine distance, so degradation can be tested with a server that goes away
// and comes back. Real-server behaviour is covered by chroma_real_test.go.
type fakeChroma struct {
	mu    sync.Mutex
	colls map[string]*fakeColl // by id
	seq   int
}

type fakeColl struct {
	name  string
	meta  any
	ids   []string
	vecs  [][]float32
	docs  []string
	metas []map[string]any
}

func newFakeChroma() *fakeChroma { return &fakeChroma{colls: map[string]*fakeColl{}} }

const fakeBase = "/api/v2/tenants/default_tenant/databases/default_database"

func (f *fakeChroma) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rest, ok := strings.CutPrefix(r.URL.Path, fakeBase+"/collections")
	if !ok {
		http.NotFound(w, r)
		return
	}
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	switch parts := strings.Split(strings.Trim(rest, "/"), "/"); {
	case r.Method == http.MethodPost && rest == "":
		f.create(w, body)
	case r.Method == http.MethodDelete && len(parts) == 1:
		for id, c := range f.colls {
			if c.name == parts[0] {
				delete(f.colls, id)
			}
		}
	case r.Method == http.MethodPost && len(parts) == 2:
		c := f.colls[parts[0]]
		if c == nil {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":"NotFoundError","message":"Collection [%s] does not exist."}`, parts[0])
			return
		}
		f.collOp(w, c, parts[1], body)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeChroma) create(w http.ResponseWriter, body map[string]any) {
	name, _ := body["name"].(string)
	for id, c := range f.colls {
		if c.name == name {
			_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "name": name, "metadata": c.meta})
			return
		}
	}
	f.seq++
	id := fmt.Sprintf("coll-%d", f.seq)
	f.colls[id] = &fakeColl{name: name, meta: body["metadata"]}
	_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "name": name, "metadata": body["metadata"]})
}

func (f *fakeChroma) collOp(w http.ResponseWriter, c *fakeColl, op string, body map[string]any) {
	switch op {
	case "add":
		for i, id := range body["ids"].([]any) {
			c.ids = append(c.ids, id.(string))
			c.docs = append(c.docs, body["documents"].([]any)[i].(string))
			c.metas = append(c.metas, body["metadatas"].([]any)[i].(map[string]any))
			var v []float32
			for _, x := range body["embeddings"].([]any)[i].([]any) {
				v = append(v, float32(x.(float64)))
			}
			c.vecs = append(c.vecs, v)
		}
		_, _ = w.Write([]byte(`{}`))
	case "get":
		where, _ := body["where"].(map[string]any)
		ids := []string{}
		for i, id := range c.ids {
			if matches(c.metas[i], where) {
				ids = append(ids, id)
			}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"ids": ids})
	case "query":
		f.query(w, c, body)
	}
}

func matches(meta, where map[string]any) bool {
	for k, v := range where {
		if meta[k] != v {
			return false
		}
	}
	return true
}

func (f *fakeChroma) query(w http.ResponseWriter, c *fakeColl, body map[string]any) {
	var q []float64
	for _, x := range body["query_embeddings"].([]any)[0].([]any) {
		q = append(q, x.(float64))
	}
	where, _ := body["where"].(map[string]any)
	type hit struct {
		i int
		d float64
	}
	var hits []hit
	for i := range c.ids {
		if matches(c.metas[i], where) {
			hits = append(hits, hit{i, cosineDistance(q, c.vecs[i])})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].d < hits[b].d })
	n := int(body["n_results"].(float64))
	hits = hits[:min(n, len(hits))]
	ids, docs, metas, dists := []string{}, []string{}, []map[string]any{}, []float64{}
	for _, h := range hits {
		ids, docs = append(ids, c.ids[h.i]), append(docs, c.docs[h.i])
		metas, dists = append(metas, c.metas[h.i]), append(dists, h.d)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"ids": [][]string{ids}, "documents": [][]string{docs}, "metadatas": [][]map[string]any{metas}, "distances": [][]float64{dists},
	})
}

func cosineDistance(q []float64, v []float32) float64 {
	var dot, nq, nv float64
	for i := range q {
		dot += q[i] * float64(v[i])
		nq += q[i] * q[i]
		nv += float64(v[i]) * float64(v[i])
	}
	return 1 - dot/math.Sqrt(nq*nv)
}

// flipServer serves a handler on a fixed address that can be stopped and
// started again, like a ChromaDB process that dies and comes back.
type flipServer struct {
	tb   testing.TB
	addr string
	h    http.Handler
	srv  *http.Server
}

func newFlipServer(tb testing.TB, h http.Handler) *flipServer {
	tb.Helper()
	f := &flipServer{tb: tb, addr: testenv.ClosedAddr(tb), h: h}
	tb.Cleanup(f.stop)
	return f
}

func (f *flipServer) url() string { return "http://" + f.addr }

func (f *flipServer) start() {
	f.tb.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port may linger briefly after a stop
		if ln, err = net.Listen("tcp", f.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		f.tb.Fatal(err)
	}
	f.srv = &http.Server{Handler: f.h}
	go func() { _ = f.srv.Serve(ln) }()
}

func (f *flipServer) stop() {
	if f.srv != nil {
		_ = f.srv.Close()
		f.srv = nil
	}
}
