package main

import (
	"io"
	"strings"
	"testing"
)

func TestParseBenchLine(t *testing.T) {
	r, ok := parseBenchLine("BenchmarkQuery100k/all-2   \t     100\t  5912345 ns/op\t   3.20 MB/s\t 4800000 cpu-ns/op\t  120 B/op\t  3 allocs/op")
	if !ok {
		t.Fatal("not parsed")
	}
	if r.name != "BenchmarkQuery100k/all" {
		t.Errorf("name: got %q", r.name)
	}
	for unit, want := range map[string]float64{"ns/op": 5912345, "MB/s": 3.2, "cpu-ns/op": 4800000, "allocs/op": 3} {
		if got := r.metrics[unit]; got != want {
			t.Errorf("%s: got %v, want %v", unit, got, want)
		}
	}
	for _, line := range []string{"goos: linux", "PASS", "ok  \tgithub.com/x\t1.2s", "BenchmarkX-2 \t abc \t 1 ns/op", "BenchmarkX-2\t10\tfast ns/op"} {
		if _, ok := parseBenchLine(line); ok {
			t.Errorf("parsed %q", line)
		}
	}
}

func TestCollectBench(t *testing.T) {
	out := "goos: linux\nBenchmarkA-2 10 100 ns/op\nBenchmarkA-2 10 300 ns/op\nBenchmarkA-2 10 200 ns/op\nPASS\n"
	res := collectBench(strings.NewReader(out), io.Discard)
	s := res["BenchmarkA ns/op"]
	if s == nil || len(s.vals) != 3 || s.med() != 200 {
		t.Fatalf("got %+v", s)
	}
}
