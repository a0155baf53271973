package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// hookInput is what Claude Code sends a SessionStart hook on stdin.
const hookInput = `{"session_id":"bench","transcript_path":"/tmp/bench.jsonl","cwd":"/tmp","hook_event_name":"SessionStart","source":"startup"}`

// procStats is /usr/bin/time-style accounting of repeated process runs:
// wall time and user+system CPU in ms (from wait4, µs resolution), peak
// RSS in MiB (from GNU time, see runRSS).
type procStats struct{ wall, cpu, rss series }

// runProc runs bin with args, env and stdin once and records it in st.
func runProc(ctx context.Context, st *procStats, env []string, stdin string, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader([]byte(stdin))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("%s %v: %w: %s", filepath.Base(bin), args, err, stderr.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return fmt.Errorf("%s: no resource usage on this system", filepath.Base(bin))
	}
	load := proc.LoadAvg()
	st.wall.add(float64(wall.Microseconds())/1e3, load)
	st.cpu.add(float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6, load)
	return nil
}

// timeBin is GNU time, used for peak RSS: wait4's ru_maxrss of a child
// started by Go includes the Go parent's memory (os/exec clones with
// CLONE_VM, and exec keeps the larger high-water mark), so a hello-world
// would show the report's own 7+ MiB. GNU time forks from a small process.
const timeBin = "/usr/bin/time"

// runRSS runs bin once under GNU time and records its peak RSS in st; it
// records nothing when GNU time is not installed.
func runRSS(ctx context.Context, st *procStats, dir string, env []string, stdin string, bin string, args ...string) error {
	if _, err := os.Stat(timeBin); err != nil {
		return nil
	}
	out := filepath.Join(dir, "time.out")
	cmd := exec.CommandContext(ctx, timeBin, append([]string{"-f", "%M", "-o", out, bin}, args...)...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader([]byte(stdin))
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w: %s", timeBin, filepath.Base(bin), err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	kb, err := strconv.ParseFloat(strings.TrimSpace(lastLine(string(b))), 64)
	if err != nil {
		return fmt.Errorf("%s output %q: %w", timeBin, b, err)
	}
	st.rss.add(kb/1024, proc.LoadAvg())
	return nil
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// hookProc is one process the hook step measures: its stats, program and
// arguments.
type hookProc struct {
	st    *procStats
	bin   string
	args  []string
	stdin string
}

// measureHook runs `paige-hook session-start --record-session` (what the
// plugin runs; left out when the tree has no paige-hook) and `paige hook
// session-start --record-session` with the seed fixture, and a
// hello-world Go binary built the same way, interleaved, r.hookRuns times
// each after one warm-up run of each.
func (r *runner) measureHook(ctx context.Context) (smallHook, hook, hello *procStats, err error) {
	home := filepath.Join(r.tmp, "hook-home")
	seed, err := os.ReadFile(filepath.Join(r.root, "internal", "seed", "testdata", "valid-seed.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := os.MkdirAll(filepath.Join(home, ".pai"), 0o700); err != nil {
		return nil, nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(home, ".pai", "seed.json"), seed, 0o600); err != nil {
		return nil, nil, nil, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	smallHook, hook, hello = &procStats{}, &procStats{}, &procStats{}
	procs := []hookProc{
		{hook, r.paige, []string{"hook", "session-start", "--record-session"}, hookInput},
		{hello, r.hello, nil, ""},
	}
	if r.paigeHook != "" {
		procs = append([]hookProc{{smallHook, r.paigeHook, []string{"session-start", "--record-session"}, hookInput}}, procs...)
	}
	var warm procStats
	for i := -1; i < r.hookRuns; i++ {
		for _, p := range procs {
			st := p.st
			if i < 0 {
				st = &warm
			}
			if err := runProc(ctx, st, env, p.stdin, p.bin, p.args...); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	for range min(r.hookRuns, 5) { // peak RSS barely varies
		for _, p := range procs {
			if err := runRSS(ctx, p.st, r.tmp, env, p.stdin, p.bin, p.args...); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return smallHook, hook, hello, nil
}
