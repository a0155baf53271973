package memory_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/sqlite"
)

func openEmbedded(tb testing.TB, path string, emb embedding.Embedder, logs *logBuf) *memory.Embedded {
	tb.Helper()
	if logs == nil {
		logs = &logBuf{}
	}
	s, err := memory.OpenEmbedded(context.Background(), path, emb, &memory.Options{Logger: logs.logger(), Now: fixedNow})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestEmbeddedSuite(t *testing.T) {
	runSuite(t, func(t *testing.T) memory.Store {
		return openEmbedded(t, filepath.Join(t.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	})
}

func TestEmbeddedPersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	s := openEmbedded(t, path, embedding.NewLexical(0), nil)
	add(t, s, "s1", "p", memory.Memory{Content: "OAuth race condition", Tags: []string{"oauth"}})
	s.Close()

	s2 := openEmbedded(t, path, embedding.NewLexical(0), nil)
	add(t, s2, "s1", "p", memory.Memory{Content: "second session write"})
	rs := query(t, s2, memory.Query{Text: "oauth race"})
	if len(rs) != 2 || rs[0].ID != "mem_s1_0" || rs[0].Metadata.Tags != "oauth" {
		t.Fatalf("after reopen: got %+v", rs)
	}
	ids := []string{rs[0].ID, rs[1].ID}
	if !strings.Contains(strings.Join(ids, " "), "mem_s1_1") {
		t.Errorf("numbering after reopen: got %v, want mem_s1_1 present", ids)
	}

	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var created, importance string
	if err := db.QueryRow(`SELECT count(*), min(created_at), min(importance) FROM memories`).Scan(&n, &created, &importance); err != nil {
		t.Fatal(err)
	}
	if n != 2 || created != "2026-02-11T09:30:00.000Z" || importance != "medium" {
		t.Errorf("rows: got %d %s %s", n, created, importance)
	}
}

func TestEmbeddedReembedsWhenEmbedderChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	s := openEmbedded(t, path, embedding.NewLexical(64), nil)
	add(t, s, "s1", "p", memory.Memory{Content: "OAuth callback race condition"}, memory.Memory{Content: "CSS grid layout"})
	s.Close()

	logs := &logBuf{}
	s2 := openEmbedded(t, path, embedding.NewLexical(256), logs)
	rs := query(t, s2, memory.Query{Text: "race condition in auth flow"})
	if len(rs) != 2 || !strings.Contains(rs[0].Content, "OAuth") {
		t.Fatalf("after embedder change: got %+v", rs)
	}
	if !strings.Contains(logs.String(), "re-embedding") {
		t.Errorf("no re-embedding log: %s", logs)
	}
}

// flakyEmbedder fails while down is set.
type flakyEmbedder struct {
	embedding.Embedder
	down  atomic.Bool
	calls atomic.Int64
}

func (f *flakyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return nil, errors.New("embedding server unreachable")
	}
	return f.Embedder.Embed(ctx, texts)
}

func TestEmbeddedDegradesWhenEmbedderFails(t *testing.T) {
	logs := &logBuf{}
	emb := &flakyEmbedder{Embedder: embedding.NewLexical(0)}
	s := openEmbedded(t, filepath.Join(t.TempDir(), "memory.db"), emb, logs)
	add(t, s, "s1", "p", memory.Memory{Content: "kept"})

	emb.down.Store(true)
	if n, err := s.AddMemories(context.Background(), "s1", "p", []memory.Memory{{Content: "lost?"}}); n != 0 || err != nil {
		t.Errorf("degraded add: got %d %v, want 0 nil", n, err)
	}
	if rs, err := s.QueryMemories(context.Background(), memory.Query{Text: "kept"}); len(rs) != 0 || err != nil {
		t.Errorf("degraded query: got %v %v, want [] nil", rs, err)
	}
	if s.IsMemoryAvailable() {
		t.Error("IsMemoryAvailable: got true while the embedder fails")
	}
	if !strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("no warning logged: %s", logs)
	}

	emb.down.Store(false)
	add(t, s, "s1", "p", memory.Memory{Content: "after recovery"})
	if !s.IsMemoryAvailable() {
		t.Error("IsMemoryAvailable: got false after recovery")
	}
	rs := query(t, s, memory.Query{Text: "kept"})
	if len(rs) != 2 || rs[1].ID != "mem_s1_1" && rs[0].ID != "mem_s1_1" {
		t.Errorf("after recovery: got %+v, want the two stored memories numbered 0 and 1", rs)
	}
}

func TestEmbeddedCancelledContext(t *testing.T) {
	s := openEmbedded(t, filepath.Join(t.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.AddMemories(ctx, "s", "p", []memory.Memory{{Content: "x"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("add: got %v, want context.Canceled", err)
	}
	if _, err := s.QueryMemories(ctx, memory.Query{Text: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("query: got %v, want context.Canceled", err)
	}
}

func TestEmbeddedConcurrent(t *testing.T) {
	s := openEmbedded(t, filepath.Join(t.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 5 {
				_, _ = s.AddMemories(context.Background(), "shared", "p", []memory.Memory{{Content: fmt.Sprintf("w%d i%d", w, i)}})
			}
		}()
		go func() {
			defer wg.Done()
			for range 5 {
				_, _ = s.QueryMemories(context.Background(), memory.Query{Text: "w1"})
			}
		}()
	}
	wg.Wait()
	rs := query(t, s, memory.Query{Text: "w", NResults: 100})
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.ID] {
			t.Errorf("duplicate id %s", r.ID)
		}
		seen[r.ID] = true
	}
	if len(rs) != 20 {
		t.Errorf("memories: got %d, want 20", len(rs))
	}
}

func TestOpenEmbeddedBadPath(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(bad, []byte(strings.Repeat("this is not a sqlite database ", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := memory.OpenEmbedded(context.Background(), bad, embedding.NewLexical(0), nil); err == nil {
		t.Error("corrupt database: got nil error")
	}
}

func TestFromConfig(t *testing.T) {
	tests := []struct {
		env     map[string]string
		wantT   string
		wantErr string
	}{
		{map[string]string{}, "*memory.Embedded", ""},
		{map[string]string{"PAIGE_MEMORY": "chroma", "CHROMADB_URL": "http://127.0.0.1:1"}, "*memory.Chroma", ""},
		{map[string]string{"CHROMADB_URL": "http://127.0.0.1:1"}, "*memory.Chroma", ""},
		{map[string]string{"PAIGE_MEMORY": "redis"}, "", "PAIGE_MEMORY must be"},
		{map[string]string{"PAIGE_EMBEDDER": "bogus"}, "", "PAIGE_EMBEDDER must be"},
	}
	for _, tt := range tests {
		env := tt.env
		env["DATA_DIR"] = t.TempDir()
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		s, err := memory.FromConfig(context.Background(), cfg, nil)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: got %v, want error %q", env, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", env, err)
		}
		if got := fmt.Sprintf("%T", s); got != tt.wantT {
			t.Errorf("%v: got %s, want %s", env, got, tt.wantT)
		}
		s.Close()
	}
}

func TestNop(t *testing.T) {
	logs := &logBuf{}
	n := memory.Nop{Logger: logs.logger()}
	if added, err := n.AddMemories(context.Background(), "s", "p", []memory.Memory{{Content: "x"}}); added != 0 || err != nil {
		t.Errorf("add: got %d %v", added, err)
	}
	if rs, err := n.QueryMemories(context.Background(), memory.Query{}); rs != nil || err != nil || n.IsMemoryAvailable() {
		t.Errorf("query: got %v %v", rs, err)
	}
	if !strings.Contains(logs.String(), "memory disabled") {
		t.Errorf("no warning: %s", logs)
	}
}
