package memory_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

// chromaTarget is where Chroma tests send requests: the fake, or the real
// server (each test in its own database).
type chromaTarget struct {
	handler  func(t *testing.T) http.Handler
	database func(t *testing.T) string
	// deleteCollection removes paige_memories behind the store's back (EC-53).
	deleteCollection func(t *testing.T, baseURL, database string)
}

func fakeTarget() chromaTarget {
	return chromaTarget{
		handler:  func(*testing.T) http.Handler { return newFakeChroma() },
		database: func(*testing.T) string { return "default_database" },
		deleteCollection: func(t *testing.T, baseURL, db string) {
			deleteCollection(t, baseURL, db)
		},
	}
}

var dbSeq atomic.Int64

// realTarget proxies to the ChromaDB server CI starts; each test gets a
// fresh database so tests never see each other's memories.
func realTarget(t *testing.T) chromaTarget {
	raw := testenv.Service(t, "PAIGE_TEST_CHROMA_URL", "ChromaDB")
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return chromaTarget{
		handler: func(*testing.T) http.Handler { return httputil.NewSingleHostReverseProxy(u) },
		database: func(t *testing.T) string {
			name := fmt.Sprintf("paige_test_%d_%d", time.Now().UnixNano(), dbSeq.Add(1))
			body := fmt.Sprintf(`{"name":%q}`, name)
			res, err := http.Post(raw+"/api/v2/tenants/default_tenant/databases", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode/100 != 2 {
				t.Fatalf("create database: %s", res.Status)
			}
			return name
		},
		deleteCollection: func(t *testing.T, _, db string) { deleteCollection(t, raw, db) },
	}
}

func deleteCollection(t *testing.T, baseURL, db string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, baseURL+"/api/v2/tenants/default_tenant/databases/"+db+"/collections/"+memory.Collection, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("delete collection: %s", res.Status)
	}
}

func openChroma(t *testing.T, url, db string, logs *logBuf) *memory.Chroma {
	t.Helper()
	if logs == nil {
		logs = &logBuf{}
	}
	s := memory.OpenChroma(context.Background(), url, embedding.NewLexical(0),
		&memory.Options{Logger: logs.logger(), Now: fixedNow, ChromaDatabase: db})
	t.Cleanup(func() { s.Close() })
	return s
}

func TestChromaFakeSuite(t *testing.T) { chromaSuite(t, fakeTarget()) }

func TestChromaFakeDegradation(t *testing.T) { chromaDegradation(t, fakeTarget()) }

func TestChromaRealSuite(t *testing.T) { chromaSuite(t, realTarget(t)) }

func TestChromaRealDegradation(t *testing.T) { chromaDegradation(t, realTarget(t)) }

func chromaSuite(t *testing.T, target chromaTarget) {
	runSuite(t, func(t *testing.T) memory.Store {
		srv := newFlipServer(t, target.handler(t))
		srv.start()
		return openChroma(t, srv.url(), target.database(t), nil)
	})
}

// chromaDegradation walks scenarios 8.5–8.9 and EC-46/47/53: down at
// startup, recovery, dying mid-run, coming back, collection deleted.
func chromaDegradation(t *testing.T, target chromaTarget) {
	ctx := context.Background()
	srv := newFlipServer(t, target.handler(t))
	db := target.database(t)
	logs := &logBuf{}

	s := openChroma(t, srv.url(), db, logs) // 8.6: nothing listening yet
	if s.IsMemoryAvailable() {
		t.Fatal("IsMemoryAvailable: got true with the server down")
	}
	want := "ChromaDB unavailable at " + srv.url() + " — memory features disabled"
	if !strings.Contains(logs.String(), want) {
		t.Errorf("startup warning %q missing from:\n%s", want, logs)
	}
	if n, err := s.AddMemories(ctx, "s1", "p", []memory.Memory{{Content: "x"}}); n != 0 || err != nil { // 8.7
		t.Errorf("degraded add: got %d %v, want 0 nil", n, err)
	}
	if rs, err := s.QueryMemories(ctx, memory.Query{Text: "x"}); len(rs) != 0 || err != nil { // 8.8
		t.Errorf("degraded query: got %v %v, want [] nil", rs, err)
	}

	srv.start() // 8.9: lazy recovery on the next call
	if n := add(t, s, "s1", "p", memory.Memory{Content: "OAuth callback race condition"}); n != 1 {
		t.Fatalf("add after recovery: got %d, want 1", n)
	}
	if !s.IsMemoryAvailable() || !strings.Contains(logs.String(), "ChromaDB reconnected — collection paige_memories ready") {
		t.Errorf("recovery not flagged/logged:\n%s", logs)
	}

	srv.stop() // EC-47: the server dies mid-run
	if rs, err := s.QueryMemories(ctx, memory.Query{Text: "race"}); len(rs) != 0 || err != nil {
		t.Errorf("query with server gone: got %v %v, want [] nil", rs, err)
	}
	if s.IsMemoryAvailable() {
		t.Error("IsMemoryAvailable: got true after a failed call")
	}
	srv.start()
	if rs := query(t, s, memory.Query{Text: "race"}); len(rs) != 1 || rs[0].ID != "mem_s1_0" {
		t.Errorf("after the server came back: got %+v", rs)
	}

	target.deleteCollection(t, srv.url(), db) // EC-53
	if rs, err := s.QueryMemories(ctx, memory.Query{Text: "race"}); len(rs) != 0 || err != nil {
		t.Errorf("query after external delete: got %v %v, want [] nil", rs, err)
	}
	if n := add(t, s, "s2", "p", memory.Memory{Content: "fresh start"}); n != 1 {
		t.Errorf("add after re-creating the collection: got %d, want 1", n)
	}
	if rs := query(t, s, memory.Query{Text: "fresh"}); len(rs) != 1 || rs[0].Content != "fresh start" {
		t.Errorf("re-created collection: got %+v", rs)
	}
}

func TestChromaConnectedAtStartup(t *testing.T) {
	srv := newFlipServer(t, newFakeChroma())
	srv.start()
	logs := &logBuf{}
	s := openChroma(t, srv.url(), "default_database", logs) // 8.5
	if !s.IsMemoryAvailable() || !strings.Contains(logs.String(), "ChromaDB connected — collection paige_memories ready") {
		t.Errorf("startup connection: available=%v logs:\n%s", s.IsMemoryAvailable(), logs)
	}
}

func TestChromaMisconfiguredURL(t *testing.T) { // EC-46
	logs := &logBuf{}
	s := openChroma(t, "http://127.0.0.1:1", "default_database", logs)
	if s.IsMemoryAvailable() || !bytes.Contains([]byte(logs.String()), []byte("memory features disabled")) {
		t.Errorf("misconfigured URL: available=%v logs:\n%s", s.IsMemoryAvailable(), logs)
	}
	if rs, err := s.QueryMemories(context.Background(), memory.Query{Text: "x"}); rs != nil || err != nil {
		t.Errorf("query: got %v %v", rs, err)
	}
}

func TestChromaWarnsOnEmbedderMismatch(t *testing.T) {
	for name, target := range map[string]func(t *testing.T) chromaTarget{
		"fake": func(*testing.T) chromaTarget { return fakeTarget() },
		"real": realTarget,
	} {
		t.Run(name, func(t *testing.T) {
			tg := target(t)
			srv := newFlipServer(t, tg.handler(t))
			srv.start()
			db := tg.database(t)
			memory.OpenChroma(context.Background(), srv.url(), embedding.NewLexical(64), &memory.Options{ChromaDatabase: db}).Close()
			logs := &logBuf{}
			openChroma(t, srv.url(), db, logs) // lexical-v1/256
			if !strings.Contains(logs.String(), "another embedder") || !strings.Contains(logs.String(), "lexical-v1/64") {
				t.Errorf("no mismatch warning:\n%s", logs)
			}
		})
	}
}
