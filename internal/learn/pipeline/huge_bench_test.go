package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// writeHugeLine writes a transcript whose one user message is a single
// line of about size bytes (a pasted log without line breaks), followed by
// an assistant answer.
func writeHugeLine(tb testing.TB, size int) string {
	tb.Helper()
	unit := "2024-05-01T10:00:00Z INFO worker=7 step 1. ok, we always retry on 503 and I prefer the fast path; "
	text := "Here is the log, I prefer pnpm. " + strings.Repeat(unit, size/len(unit))
	content, err := json.Marshal(text)
	if err != nil {
		tb.Fatal(err)
	}
	line := `{"type":"user","message":{"role":"user","content":` + string(content) + "}}\n" +
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Looking."}]}}` + "\n"
	path := filepath.Join(tb.TempDir(), "huge.jsonl")
	testenv.WriteFile(tb, path, line, 0o644)
	return path
}

// BenchmarkHugeLine60MB runs the whole pipeline on a transcript whose one
// message is a 60 MB single line: classification and extraction look at a
// bounded prefix, so the run is linear in the file (reading it) with a
// small constant.
func BenchmarkHugeLine60MB(b *testing.B) {
	path := writeHugeLine(b, 60<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	benchRun(b, path)
}
