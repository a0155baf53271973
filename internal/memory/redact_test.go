package memory_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
)

const memorySecret = "zq8vn3kd7x1"

var secretMemory = memory.Memory{Content: "Deploy needs export API_KEY=" + memorySecret + " first", Tags: []string{"deploy", "token=" + memorySecret}}

// testRedacts: a memory's secret is not what the backend keeps.
func testRedacts(t *testing.T, s memory.Store) {
	add(t, s, "s1", "p", secretMemory)
	rs := query(t, s, memory.Query{Text: "deploy api key"})
	if len(rs) != 1 {
		t.Fatalf("results %+v", rs)
	}
	if got := rs[0].Content + " " + rs[0].Metadata.Tags; strings.Contains(got, memorySecret) || !strings.Contains(got, "API_KEY=[REDACTED:api-key]") {
		t.Errorf("stored %q", got)
	}
}

// TestEmbeddedFilesHoldNoSecret reads the database files themselves.
func TestEmbeddedFilesHoldNoSecret(t *testing.T) {
	dir := t.TempDir()
	s := openEmbedded(t, filepath.Join(dir, "memory.db"), embedding.NewLexical(0), nil)
	add(t, s, "s1", "p", secretMemory)
	s.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), memorySecret) {
			t.Errorf("%s holds the secret", e.Name())
		}
	}
}
