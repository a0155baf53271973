package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// benchTree writes dirs directories of 100 files each, named as in
// bench/report's large project (src/pkgNNNN/fileNNN.ts).
func benchTree(b *testing.B, dirs int) *Workspace {
	b.Helper()
	root := b.TempDir()
	for d := range dirs {
		sub := filepath.Join(root, "src", fmt.Sprintf("pkg%04d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%03d.ts", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	w, err := New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkWatchWalk measures the initial walk of a 20,000-file project
// (issue 15): the CPU of Watch until Ready, the heap the watcher keeps
// once it is ready (retained-B/file, after a GC) and what the walk
// allocates in all (alloc-B/file, garbage included).
func BenchmarkWatchWalk(b *testing.B) {
	const dirs = 200
	files := float64(dirs * 100)
	w := benchTree(b, dirs)
	var retained, allocated float64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := testenv.CPUTime()
		wt, err := w.Watch(nil)
		if err != nil {
			b.Fatal(err)
		}
		<-wt.Ready()
		cpu += testenv.CPUTime() - start
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained += float64(after.HeapAlloc) - float64(before.HeapAlloc)
		allocated += float64(after.TotalAlloc - before.TotalAlloc)
		runtime.KeepAlive(wt)
		if err := wt.Close(); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/op")
	b.ReportMetric(retained/n/files, "retained-B/file")
	b.ReportMetric(allocated/n/files, "alloc-B/file")
}
