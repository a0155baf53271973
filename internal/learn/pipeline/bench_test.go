package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/transcript"
	"github.com/paige-dev/paige/internal/testenv"
)

var benchPrompts = []string{
	"I prefer table-driven tests for handler %d",
	"No, that's wrong — use the v2 client in module %d",
	"Never push to main without review %d",
	"Let's go with sqlite for cache layer %d",
	"can you look at the failing test in package %d and fix it, the CI log is attached above",
	"ok",
	"What am I doing wrong in step %d?",
}

// writeBenchTranscript writes a transcript of about size bytes shaped like
// a real session: user prompts, assistant messages split one block per
// line, tool results of 2–8 KB and progress records.
func writeBenchTranscript(tb testing.TB, size int) string {
	tb.Helper()
	var b strings.Builder
	body := strings.Repeat(`    17→func (s *Server) handle(w http.ResponseWriter, r *http.Request) { s.log.Info(\"req\") }\n`, 100)
	for i := 0; b.Len() < size; i++ {
		p := benchPrompts[i%len(benchPrompts)]
		if strings.Contains(p, "%d") {
			p = fmt.Sprintf(p, i)
		}
		fmt.Fprintf(&b, `{"type":"user","isSidechain":false,"message":{"role":"user","content":%q},"uuid":"u%d"}`+"\n", p, i)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"Let me look at that."}]}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"/src/f%d.go"}}]}}`+"\n", i, i, i)
		fmt.Fprintf(&b, `{"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse"}}`+"\n")
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, body[:2000+(i*997)%6000])
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"n%d","role":"assistant","content":[{"type":"text","text":"Done: updated f%d.go and the tests pass."}]}}`+"\n", i, i)
	}
	path := filepath.Join(tb.TempDir(), "bench.jsonl")
	testenv.WriteFile(tb, path, b.String(), 0o644)
	return path
}

// benchRun runs the whole pipeline on path into a fresh, empty store each
// iteration (opening the store is not timed) and returns the last run's
// result and the CPU time the runs took.
func benchRun(b *testing.B, path string) (Result, time.Duration) {
	var res Result
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		s := newStore(b)
		b.StartTimer()
		cpu0 := testenv.CPUTime()
		var err error
		res, err = Run(context.Background(), path, Options{Store: s})
		cpu += testenv.CPUTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
	}
	return res, cpu
}

// reportMBPerCPU reports MB/cpu-s, the size bytes of each of b.N runs
// over cpu, when any CPU time was measured.
func reportMBPerCPU(b *testing.B, size int64, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/(1<<20)/cpu.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkHeuristicExtract3MB runs the whole pipeline (read, classify,
// heuristic extraction, dedup, store, knowledge.md) on a 3 MB transcript
// into an empty store. Target: ≤ 200 ms per run, and (issue 15) ≥ 400 MB
// per CPU second: MB/cpu-s is what one core does whatever else the machine
// runs (run with GOMAXPROCS=1).
func BenchmarkHeuristicExtract3MB(b *testing.B) {
	path := writeBenchTranscript(b, 3<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	res, cpu := benchRun(b, path)
	b.ReportMetric(float64(res.Stats.TurnsProcessed), "turns")
	b.ReportMetric(float64(len(res.Entries)), "entries")
	reportMBPerCPU(b, fi.Size(), cpu)
}

// BenchmarkClassifyExtract3MB runs classify, heuristic extraction and
// dedup (RunTurns, dry run: nothing written) over the turns of a 3 MB
// transcript read once beforehand: the sentence work alone, per CPU second
// (run with GOMAXPROCS=1).
func BenchmarkClassifyExtract3MB(b *testing.B) {
	path := writeBenchTranscript(b, 3<<20)
	fi, _ := os.Stat(path)
	turns, _, err := transcript.ReadFile(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	s := newStore(b)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	cpu0 := testenv.CPUTime()
	for b.Loop() {
		if _, err := RunTurns(context.Background(), turns, "session:bench", Options{Store: s, DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
	reportMBPerCPU(b, fi.Size(), testenv.CPUTime()-cpu0)
}

// BenchmarkRead3MB is the reader alone (transcript.ReadFile) on the 3 MB
// transcript of BenchmarkHeuristicExtract3MB, per CPU second.
func BenchmarkRead3MB(b *testing.B) {
	path := writeBenchTranscript(b, 3<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	cpu0 := testenv.CPUTime()
	for b.Loop() {
		if _, _, err := transcript.ReadFile(path, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportMBPerCPU(b, fi.Size(), testenv.CPUTime()-cpu0)
}

// BenchmarkFloor3MB is what any reader of the same file costs at least on
// this machine: the file read line by line with bufio (as the reader does),
// alone and with each line checked by encoding/json's json.Valid.
func BenchmarkFloor3MB(b *testing.B) {
	path := writeBenchTranscript(b, 3<<20)
	fi, _ := os.Stat(path)
	for _, check := range []struct {
		name  string
		valid func([]byte) bool
	}{{"lines", func([]byte) bool { return true }}, {"lines+json.Valid", json.Valid}} {
		b.Run(check.name, func(b *testing.B) {
			b.SetBytes(fi.Size())
			invalid := 0
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				br := bufio.NewReaderSize(f, 256<<10)
				for {
					line, err := br.ReadSlice('\n')
					if len(line) > 0 && !check.valid(line) {
						invalid++ // the generator cuts some tool results inside an escape
					}
					if err != nil {
						break
					}
				}
				f.Close()
			}
			b.ReportMetric(float64(invalid)/float64(b.N), "invalid-lines")
			reportMBPerCPU(b, fi.Size(), testenv.CPUTime()-cpu0)
		})
	}
}

// BenchmarkStore3MB is the store's part of a run of
// BenchmarkHeuristicExtract3MB alone: the transcript's key and the
// processed check, the tool trail's entries (none here) and the run's
// entries stored under the store's lock, their fsync, knowledge.md and the
// processed record. The entries are those the run stores (found once
// beforehand, so no sentence work is timed). "fresh" stores into an empty
// store each time, as BenchmarkHeuristicExtract3MB does (so each run
// creates the store's files); "existing" into a store that holds one run
// already (the same entries under other ids), as a store in use does.
func BenchmarkStore3MB(b *testing.B) {
	path := writeBenchTranscript(b, 3<<20)
	turns, _, err := transcript.ReadFile(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	dry, err := RunTurns(context.Background(), turns, Source(path), Options{Store: newStore(b), DryRun: true})
	if err != nil {
		b.Fatal(err)
	}
	again := make([]learn.Entry, len(dry.Entries))
	for i, e := range dry.Entries {
		e.ID = knowledge.NewID()
		again[i] = e
	}
	for _, existing := range []bool{false, true} {
		name := map[bool]string{false: "fresh", true: "existing"}[existing]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				s := newStore(b)
				if existing {
					if err := storePart(s, path, again); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				cpu0 := testenv.CPUTime()
				if err := storePart(s, path, dry.Entries); err != nil {
					b.Fatal(err)
				}
				cpu += testenv.CPUTime() - cpu0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
