package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// loadNow is the 1-minute load average now.
func loadNow() float64 { return proc.LoadAvg() }

// figures is everything one report measured.
type figures struct {
	// plugin is the plugin's SessionStart commands through /bin/sh (as
	// Claude Code runs them), helloShell the hello-world run the same way;
	// smallHook is `paige-hook session-start`, hook `paige hook
	// session-start`, hello the hello-world, each run directly.
	plugin, helloShell, smallHook, hook, hello *procStats

	// On the small project: start → /health (ms), the server's CPU by
	// then (ms) and its RSS then (MiB); the same on the large project.
	readySmall, cpuSmall, rssSmall series
	readyLarge, cpuLarge, rssLarge series
	// The same starts again on the data dir the first start made (its
	// databases exist): what a developer waits for on every later start.
	restartSmall, restartLarge series
	// On the large project once the server is idle again (its start-up
	// work finished, e.g. the watcher's background walk): CPU (ms), RSS.
	cpuLargeSettled, rssLargeSettled series

	rssIdle, rss16, rss500 series // MiB

	mcpSeqCPU, mcp16CPU series // server µs per paige_get_buffer call
	mcp16Rate           series // calls/s, 16 clients back to back
	wsCPU, wsRate       series // server µs per buffer:update, msg/s

	bench map[string]*series // "BenchmarkName unit"
}

// newFigures returns empty figures, ready for the steps to fill.
func newFigures() figures {
	return figures{plugin: &procStats{}, helloShell: &procStats{}, smallHook: &procStats{}, hook: &procStats{}, hello: &procStats{}}
}

func (r *runner) stepHook(ctx context.Context, f *figures) error {
	return r.measureHook(ctx, f)
}

// bufferText is the unsaved buffer paige_get_buffer answers: about 2.6 KB
// of code, the size of the WebSocket frames.
var bufferText = strings.Repeat("const value = compute(input) + 1; // line of code\n", 50)

// stepServe runs r.runs fresh servers on a small project, each through
// the MCP and WebSocket scenarios.
func (r *runner) stepServe(ctx context.Context, f *figures) error {
	project, err := writeProject(filepath.Join(r.tmp, "small"), 20)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(project, "src", "auth.ts"), []byte("export const x = 1;\n"), 0o644); err != nil {
		return err
	}
	for i := range r.runs {
		if err := r.serveOnce(ctx, f, project, filepath.Join(r.tmp, fmt.Sprintf("serve-%d", i))); err != nil {
			return err
		}
	}
	return nil
}

// serveOnce is one server's scenarios, in order: idle RSS, an editor
// that starts a coaching session and holds the buffer, 16 MCP clients
// back to back (RSS with their sessions open), one MCP client, the
// editor's buffer:updates, r.conns idle WebSocket clients (RSS).
func (r *runner) serveOnce(ctx context.Context, f *figures, project, dir string) (err error) {
	s, err := r.startServe(ctx, project, dir)
	if err != nil {
		return err
	}
	defer func() {
		if e := s.stop(); err == nil && e != nil {
			err = fmt.Errorf("%w\n%s", e, s.log.Bytes())
		}
	}()
	s.settle(quietFor, settleLimit) // idle: the start's work behind /health is done
	f.rssIdle.add(s.rss(), loadNow())
	ws := wsURL(s.base)
	editor, err := startEditor(ctx, ws, bufferText)
	if err != nil {
		return err
	}
	defer editor.close()
	res, err := mcpLoad(ctx, s.base, s.pid(), 16, len(bufferText), r.loadFor, func() { f.rss16.add(s.rss(), loadNow()) })
	if err != nil {
		return err
	}
	r.logLoad("MCP paige_get_buffer, 16 clients", res, "call")
	f.mcp16CPU.add(res.cpuPerOp(), loadNow())
	f.mcp16Rate.add(res.rate(), loadNow())
	if res, err = mcpLoad(ctx, s.base, s.pid(), 1, len(bufferText), r.loadFor, func() {}); err != nil {
		return err
	}
	r.logLoad("MCP paige_get_buffer, 1 client", res, "call")
	f.mcpSeqCPU.add(res.cpuPerOp(), loadNow())
	if res, err = wsLoad(ctx, editor, s.pid(), bufferText, r.loadFor); err != nil {
		return err
	}
	r.logLoad("WS buffer:update, 1 client", res, "msg")
	f.wsCPU.add(res.cpuPerOp(), loadNow())
	f.wsRate.add(res.rate(), loadNow())
	return idleClients(ctx, ws, r.conns, time.Second, func() { f.rss500.add(s.rss(), loadNow()) })
}

// logLoad notes one load run's figures in the progress log.
func (r *runner) logLoad(what string, res loadResult, unit string) {
	fmt.Fprintf(r.log, "    %s: %d %ss in %.2fs = %.0f/s, server CPU %.1f µs/%s\n",
		what, res.ops, unit, res.elapsed.Seconds(), res.rate(), res.cpuPerOp(), unit)
}

// stepLarge times start → /health on a generated r.files-file project
// and, alternating with it, on a 20-file one.
func (r *runner) stepLarge(ctx context.Context, f *figures) error {
	fmt.Fprintf(r.log, "    writing %d files\n", r.files)
	project, err := writeProject(filepath.Join(r.tmp, "large"), r.files)
	if err != nil {
		return err
	}
	small, err := writeProject(filepath.Join(r.tmp, "small-start"), 20)
	if err != nil {
		return err
	}
	for i := range r.runs {
		s, err := r.startServe(ctx, small, filepath.Join(r.tmp, fmt.Sprintf("small-%d", i)))
		if err != nil {
			return err
		}
		load := loadNow()
		f.readySmall.add(float64(s.ready.Microseconds())/1e3, load)
		f.cpuSmall.add(float64(s.cpu.Microseconds())/1e3, load)
		f.rssSmall.add(s.rss(), load)
		if err := s.stop(); err != nil {
			return fmt.Errorf("%w\n%s", err, s.log.Bytes())
		}
		if s, err = r.startServe(ctx, project, filepath.Join(r.tmp, fmt.Sprintf("large-%d", i))); err != nil {
			return err
		}
		load = loadNow()
		f.readyLarge.add(float64(s.ready.Microseconds())/1e3, load)
		f.cpuLarge.add(float64(s.cpu.Microseconds())/1e3, load)
		f.rssLarge.add(s.rss(), load)
		cpu := s.settle(quietFor, settleLimit)
		f.cpuLargeSettled.add(float64(cpu.Microseconds())/1e3, load)
		f.rssLargeSettled.add(s.rss(), load)
		if err := s.stop(); err != nil {
			return fmt.Errorf("%w\n%s", err, s.log.Bytes())
		}
		if err := r.restart(ctx, &f.restartSmall, small, fmt.Sprintf("small-%d", i)); err != nil {
			return err
		}
		if err := r.restart(ctx, &f.restartLarge, project, fmt.Sprintf("large-%d", i)); err != nil {
			return err
		}
	}
	return nil
}

// restart times start → /health of a server on project and the data dir
// named dir that an earlier start made, into ready.
func (r *runner) restart(ctx context.Context, ready *series, project, dir string) error {
	s, err := r.startServe(ctx, project, filepath.Join(r.tmp, dir))
	if err != nil {
		return err
	}
	ready.add(float64(s.ready.Microseconds())/1e3, loadNow())
	if err := s.stop(); err != nil {
		return fmt.Errorf("%w\n%s", err, s.log.Bytes())
	}
	return nil
}

// goBenches are the Go benchmarks of the table, by package. heavy marks
// one whose set-up alone costs tens of CPU-seconds, left out of the short
// mode (it is still compiled by every go vet and go test). cpu, when set,
// is go test's -cpu: the learn row's target is per core, and with a second
// P the garbage collector's idle mark workers spend the other core's idle
// time, which counts as CPU but is no work one core does. tmpfs runs the
// benchmark a second time with its temporary directories on a tmpfs (its
// figures keyed "tmpfs name unit"): the learn benchmark makes a new store
// per run, and creating its three files on ext4 costs a varying 1–4 ms of
// kernel CPU (__ext4_new_inode skips inodes deleted in the last minutes,
// which the benchmark's own runs and any mass deletion, such as an earlier
// report's large project, leave many of), so the second run shows the
// pipeline's own CPU beside it.
var goBenches = []struct {
	pkg, pattern, cpu string
	heavy, tmpfs      bool
}{
	{"./internal/learn/pipeline", "^BenchmarkHeuristicExtract3MB$", "1", false, true},
	{"./internal/memory", "^Benchmark(Query100k|Search100k)$", "", false, false}, // 10,000 memories (1,000 rows for the scan) with -short
	{"./internal/coach/dashboard", "^BenchmarkDashboardState$", "", true, false},
}

// shmDir is where a benchmark's tmpfs run keeps its temporary directories.
const shmDir = "/dev/shm"

func (r *runner) stepBench(ctx context.Context, f *figures) error {
	f.bench = map[string]*series{}
	for _, b := range goBenches {
		if r.short && b.heavy {
			continue
		}
		if err := r.addBench(ctx, f, b.pkg, b.pattern, b.cpu, ""); err != nil {
			return err
		}
		if !b.tmpfs || !proc.IsTmpfs(shmDir) {
			continue
		}
		dir, err := os.MkdirTemp(shmDir, "paige-bench-")
		if err != nil {
			return err
		}
		err = r.addBench(ctx, f, b.pkg, b.pattern, b.cpu, dir)
		os.RemoveAll(dir)
		if err != nil {
			return err
		}
	}
	return nil
}

// addBench runs one goBench and adds its series to f.bench, each key
// prefixed "tmpfs " when its temporary directories were in tmpDir.
func (r *runner) addBench(ctx context.Context, f *figures, pkg, pattern, cpu, tmpDir string) error {
	res, err := r.goBench(ctx, pkg, pattern, cpu, tmpDir)
	if err != nil {
		return err
	}
	prefix := ""
	if tmpDir != "" {
		prefix = "tmpfs "
	}
	for k, v := range res {
		f.bench[prefix+k] = v
	}
	return nil
}
