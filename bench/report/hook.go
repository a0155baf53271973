package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// hookInput is what Claude Code sends a SessionStart hook on stdin.
const hookInput = `{"session_id":"bench","transcript_path":"/tmp/bench.jsonl","cwd":"/tmp","hook_event_name":"SessionStart","source":"startup"}`

// procStats is /usr/bin/time-style accounting of repeated process runs:
// wall time and user+system CPU in ms, peak RSS in MiB.
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
	st.rss.add(float64(ru.Maxrss)/1024, load) // Linux: kilobytes
	return nil
}

// measureHook runs `paige hook session-start` with the seed fixture and a
// hello-world Go binary built the same way, interleaved, r.hookRuns times
// each after one warm-up run of each.
func (r *runner) measureHook(ctx context.Context) (hook, hello *procStats, err error) {
	home := filepath.Join(r.tmp, "hook-home")
	seed, err := os.ReadFile(filepath.Join(r.root, "internal", "seed", "testdata", "valid-seed.json"))
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Join(home, ".pai"), 0o700); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(home, ".pai", "seed.json"), seed, 0o600); err != nil {
		return nil, nil, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	hook, hello = &procStats{}, &procStats{}
	var warm procStats
	for i := -1; i < r.hookRuns; i++ {
		h, w := hook, hello
		if i < 0 {
			h, w = &warm, &warm
		}
		if err := runProc(ctx, h, env, hookInput, r.paige, "hook", "session-start"); err != nil {
			return nil, nil, err
		}
		if err := runProc(ctx, w, env, "", r.hello); err != nil {
			return nil, nil, err
		}
	}
	return hook, hello, nil
}
