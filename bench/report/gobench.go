package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// benchResult is one line of `go test -bench` output: the benchmark's
// name without its -GOMAXPROCS suffix and its metrics by unit (ns/op,
// MB/s, cpu-ns/op, B/op, allocs/op, ...).
type benchResult struct {
	name    string
	metrics map[string]float64
}

// parseBenchLine parses one result line of `go test -bench`; ok is false
// for any other line.
func parseBenchLine(line string) (r benchResult, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return r, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return r, false
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	r = benchResult{name: name, metrics: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return r, false
		}
		r.metrics[f[i+1]] = v
	}
	return r, len(r.metrics) > 0
}

// goBench runs `go test -bench pattern` in pkg count times (each a
// separate -count run), with GOMAXPROCS cpu unless cpu is "" and TMPDIR
// tmpDir unless it is "", and returns each benchmark's metric series keyed
// by "name unit". Loads are read as each result line arrives.
func (r *runner) goBench(ctx context.Context, pkg, pattern, cpu, tmpDir string) (map[string]*series, error) {
	args := []string{"test", "-run", "^$", "-bench", pattern, "-benchmem",
		"-count", strconv.Itoa(r.runs), "-benchtime", r.benchtime, "-timeout", "30m"}
	if cpu != "" {
		args = append(args, "-cpu", cpu)
	}
	if r.short {
		args = append(args, "-short")
	}
	cmd := exec.CommandContext(ctx, r.goCmd, append(args, pkg)...)
	cmd.Dir = r.root
	if tmpDir != "" {
		cmd.Env = append(os.Environ(), "TMPDIR="+tmpDir)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("go test %s: %w", pkg, err)
	}
	res := collectBench(out, r.log)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("go test -bench %s %s: %w", pattern, pkg, err)
	}
	return res, nil
}

// collectBench reads `go test -bench` output, echoing it to log.
func collectBench(out io.Reader, log io.Writer) map[string]*series {
	res := map[string]*series{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		fmt.Fprintln(log, "   ", sc.Text())
		b, ok := parseBenchLine(sc.Text())
		if !ok {
			continue
		}
		load := proc.LoadAvg()
		for unit, v := range b.metrics {
			k := b.name + " " + unit
			if res[k] == nil {
				res[k] = &series{}
			}
			res[k].add(v, load)
		}
	}
	return res
}
