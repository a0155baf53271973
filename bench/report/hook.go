package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// pluginSessionStart returns the SessionStart commands of the plugin's
// hooks.json in root, joined by newlines: one shell script that runs them in
// order, as Claude Code runs each through a shell. It returns "" when the
// tree has no plugin.
func pluginSessionStart(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "plugin", "hooks", "hooks.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var cfg struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return "", fmt.Errorf("plugin hooks.json: %w", err)
	}
	var cmds []string
	for _, m := range cfg.Hooks["SessionStart"] {
		for _, h := range m.Hooks {
			cmds = append(cmds, h.Command)
		}
	}
	return strings.Join(cmds, "\n"), nil
}

// measureHook measures, interleaved, r.hookRuns times each after one
// warm-up run of each, with the seed fixture:
//   - the plugin's SessionStart commands through /bin/sh with the built
//     binaries first on PATH, exactly as Claude Code runs them, against a
//     hello-world run the same way (f.plugin, f.helloShell; left out when
//     the tree has no plugin);
//   - `paige-hook session-start --record-session` (left out when the tree
//     has none) and `paige hook session-start --record-session` run
//     directly, against the hello-world run directly (f.smallHook, f.hook,
//     f.hello).
func (r *runner) measureHook(ctx context.Context, f *figures) error {
	home := filepath.Join(r.tmp, "hook-home")
	seed, err := os.ReadFile(filepath.Join(r.root, "internal", "seed", "testdata", "valid-seed.json"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(home, ".pai"), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".pai", "seed.json"), seed, 0o600); err != nil {
		return err
	}
	script, err := pluginSessionStart(r.root)
	if err != nil {
		return err
	}
	// The binaries sit in r.tmp: on PATH first, as an installed paige is.
	env := []string{"PATH=" + r.tmp + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home}
	procs := []hookProc{
		{f.hook, r.paige, []string{"hook", "session-start", "--record-session"}, hookInput},
		{f.hello, r.hello, nil, ""},
	}
	if r.paigeHook != "" {
		procs = append(procs, hookProc{f.smallHook, r.paigeHook, []string{"session-start", "--record-session"}, hookInput})
	}
	if script != "" {
		procs = append(procs,
			hookProc{f.plugin, "/bin/sh", []string{"-c", script}, hookInput},
			hookProc{f.helloShell, "/bin/sh", []string{"-c", filepath.Base(r.hello)}, ""})
	}
	var warm procStats
	for i := -1; i < r.hookRuns; i++ {
		for _, p := range procs {
			st := p.st
			if i < 0 {
				st = &warm
			}
			if err := runProc(ctx, st, env, p.stdin, p.bin, p.args...); err != nil {
				return err
			}
		}
	}
	for range min(r.hookRuns, 5) { // peak RSS barely varies
		for _, p := range procs {
			if err := runRSS(ctx, p.st, r.tmp, env, p.stdin, p.bin, p.args...); err != nil {
				return err
			}
		}
	}
	return nil
}
