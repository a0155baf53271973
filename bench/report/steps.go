package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
)

// loadNow is the 1-minute load average now.
func loadNow() float64 { return proc.LoadAvg() }

// figures is everything one report measured.
type figures struct {
	// smallHook is `paige-hook session-start` (what the plugin runs),
	// hook `paige hook session-start`, hello the hello-world.
	smallHook, hook, hello *procStats

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
	// The same calls answered by bench/mcpfloor (net/http served as paige
	// serve serves it, a constant answer of the same size, no MCP work):
	// the floor under the two figures above.
	floorSeqCPU, floor16CPU series
	mcp16Rate, mcp16P99     series // calls/s, ms
	// 16 clients sending targetRate calls/s together (open loop): the
	// rate achieved and the p99 at the rate the target names, where the
	// closed loop above measures the tail at saturation.
	openRate, openP99 series
	wsCPU, wsRate     series // server µs per buffer:update, msg/s

	bench map[string]*series // "BenchmarkName unit"
}

func (r *runner) stepHook(ctx context.Context, f *figures) error {
	var err error
	f.smallHook, f.hook, f.hello, err = r.measureHook(ctx)
	return err
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
		if err := r.floorOnce(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// floorOnce runs serveOnce's two mcpload measurements (without a seeded
// buffer: the floor has no /ws, and its answer carries one of the same
// size anyway) against a fresh bench/mcpfloor.
func (r *runner) floorOnce(ctx context.Context, f *figures) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.CommandContext(ctx, r.mcpfloor, "-addr", addr, "-buffer-bytes", strconv.Itoa(len(bufferText)))
	var log bytes.Buffer // read once the process has ended
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start mcpfloor: %w", err)
	}
	stop := func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }
	defer stop()
	if err := waitListening(ctx, addr); err != nil {
		stop()
		return fmt.Errorf("mcpfloor: %w\n%s", err, log.Bytes())
	}
	args := []string{"-url", "http://" + addr + "/mcp", "-server-pid", strconv.Itoa(cmd.Process.Pid),
		"-mode", "closed", "-duration", r.loadFor}
	for _, run := range []struct {
		workers string
		cpu     *series
	}{{"16", &f.floor16CPU}, {"1", &f.floorSeqCPU}} {
		out, err := r.tool(ctx, r.mcpload, append(args, "-workers", run.workers)...)
		if err != nil {
			return err
		}
		if err := addFields(out, loadNow(), map[string]*series{"server cpu": run.cpu}); err != nil {
			return err
		}
	}
	return nil
}

// targetRate is the MCP throughput the target names, in calls/s.
const targetRate = 10_000

// serveOnce is one server's scenarios, in order: ready, idle RSS, 16 MCP
// clients back to back, RSS with their sessions, one sequential MCP
// client, 16 MCP clients at targetRate, one WebSocket client's
// buffer:updates, r.conns idle WebSocket clients.
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
	load := loadNow()
	f.rssIdle.add(s.rss(), load)
	pid := strconv.Itoa(s.pid())
	mcpArgs := func(mode string, more ...string) []string {
		return append([]string{"-url", s.base + "/mcp", "-server-pid", pid, "-mode", mode,
			"-duration", r.loadFor, "-buffer", bufferText}, more...)
	}
	out, err := r.tool(ctx, r.mcpload, mcpArgs("closed", "-workers", "16")...)
	if err != nil {
		return err
	}
	load = loadNow()
	if err := addFields(out, load, map[string]*series{"server cpu": &f.mcp16CPU, "achieved": nil, "p99": &f.mcp16P99}); err != nil {
		return err
	}
	rate, err := callsPerSecond(out)
	if err != nil {
		return err
	}
	f.mcp16Rate.add(rate, load)
	f.rss16.add(s.rss(), load)
	if out, err = r.tool(ctx, r.mcpload, mcpArgs("closed", "-workers", "1")...); err != nil {
		return err
	}
	if err := addFields(out, loadNow(), map[string]*series{"server cpu": &f.mcpSeqCPU}); err != nil {
		return err
	}
	if out, err = r.tool(ctx, r.mcpload, mcpArgs("open", "-workers", "16", "-rate", strconv.Itoa(targetRate))...); err != nil {
		return err
	}
	if err := addFields(out, loadNow(), map[string]*series{"p99": &f.openP99}); err != nil {
		return err
	}
	if rate, err = callsPerSecond(out); err != nil {
		return err
	}
	f.openRate.add(rate, loadNow())
	ws := "ws" + strings.TrimPrefix(s.base, "http") + "/ws"
	if out, err = r.tool(ctx, r.wsload, "-url", ws, "-server-pid", pid, "-session", "-duration", r.loadFor); err != nil {
		return err
	}
	if err := addFields(out, loadNow(), map[string]*series{"server cpu": &f.wsCPU, "=": &f.wsRate}); err != nil {
		return err
	}
	out, err = r.tool(ctx, r.wsload, "-url", ws, "-server-pid", pid, "-mode", "idle",
		"-conns", strconv.Itoa(r.conns), "-hold", "1s")
	if err != nil {
		return err
	}
	return addFields(out, loadNow(), map[string]*series{"server rss": &f.rss500})
}

// addFields adds, for each label with a non-nil series, the number after
// label in out.
func addFields(out string, load float64, m map[string]*series) error {
	for label, s := range m {
		if s == nil {
			continue
		}
		v, err := field(out, label)
		if err != nil {
			return err
		}
		s.add(v, load)
	}
	return nil
}

// callsPerSecond reads mcpload's "= N calls/s achieved".
func callsPerSecond(out string) (float64, error) {
	for line := range strings.Lines(out) {
		if i := strings.Index(line, "calls/s achieved"); i > 0 {
			if j := strings.LastIndex(line[:i], "="); j >= 0 {
				return strconv.ParseFloat(strings.TrimSpace(line[j+1:i]), 64)
			}
		}
	}
	return 0, fmt.Errorf("no calls/s in mcpload's output:\n%s", out)
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
	{"./internal/seed", "^Benchmark(ValidateJSONLarge|ValidateLarge)$", "", false, false},
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

// waitListening waits (at most ten seconds) until addr accepts a TCP
// connection.
func waitListening(ctx context.Context, addr string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("not listening on %s after 10 s: %w", addr, err)
		}
		time.Sleep(5 * time.Millisecond) // polling: nothing to wait on but the port
	}
}
