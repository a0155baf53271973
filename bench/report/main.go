// Command report measures the budgets of issue 24 ("Back to the
// libraries: speed where a person waits") on this machine and prints them
// as Markdown: each figure as the median and min–max over several runs,
// with the 1-minute load average beside it and the budget beside that.
// `make bench-report` runs it.
//
// It builds `paige` and `paige-hook` (as `make build` does) and a
// hello-world Go binary the same way, then measures:
//
//   - the plugin's SessionStart command (plugin/hooks/hooks.json) through
//     /bin/sh as Claude Code runs it, against the hello-world run the same
//     way, and `paige-hook session-start --record-session` and `paige hook
//     session-start` run directly, against the hello-world run directly:
//     whole processes, /usr/bin/time-style (wall, user+system CPU, peak
//     RSS);
//   - a real `paige serve` (offline, temporary project, data dir and HOME),
//     driven by library clients (the official MCP Go SDK client, and
//     github.com/coder/websocket for the editor WebSocket): RSS once idle,
//     paige_get_buffer with 1 and 16 MCP clients (server CPU per call from
//     /proc) and RSS with those 16 sessions, buffer:update on one WebSocket
//     during a coaching session (server CPU per message), RSS with 500
//     WebSocket clients;
//   - start → /health on a generated 100,000-file project, against a small
//     one: the server's CPU when /health first answers and again once it is
//     idle, in nanoseconds (its CPU-time clock, proc.CPUExact), and RSS;
//   - the Go benchmarks of learn's heuristic extraction, the embedded
//     memory query and dashboard:state.
//
// CPU per operation and ratios are what to compare on a shared machine;
// wall figures depend on the load printed beside them.
//
// With -short (or BENCH_SHORT=1) every tool runs once on tiny inputs with
// -benchtime 1x: CI runs that so the tools never rot. It asserts no timing;
// it fails only when a tool or a benchmark fails.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// runner holds a report's settings and the binaries it built.
type runner struct {
	short     bool
	runs      int           // server scenarios and -count of the Go benchmarks
	hookRuns  int           // hook and hello-world runs
	loadFor   time.Duration // each load run's duration
	conns     int           // idle WebSocket clients
	files     int           // files of the large project
	benchtime string
	goCmd     string
	root      string // the module measured (paige and the Go benchmarks)
	tmp       string
	log       io.Writer       // progress and the tools' raw output
	only      map[string]bool // steps to run; empty means all

	paige, hello string
	paigeHook    string // "" when the measured tree has no cmd/paige-hook
}

// realMain runs the report and returns the exit code.
func realMain(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	short := fs.Bool("short", getenv("BENCH_SHORT") == "1", "run every tool once on tiny inputs (CI; also BENCH_SHORT=1)")
	runs := fs.Int("runs", 5, "runs of each server scenario and -count of each Go benchmark")
	only := fs.String("only", "", "comma-separated steps to run (hook, serve, large, bench); default all")
	root := fs.String("root", "", "measure the paige source tree in this directory (default: this module), e.g. an older commit's `git archive` for before/after figures")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *runs < 1 || *runs > 100 {
		fmt.Fprintf(stderr, "report: -runs %d: want 1 to 100\n", *runs)
		return 2
	}
	r := &runner{short: *short, runs: *runs, hookRuns: 20, loadFor: 3 * time.Second, conns: 500, files: 100_000,
		benchtime: "1s", goCmd: "go", log: stderr, root: *root, only: map[string]bool{}}
	for _, s := range strings.Split(*only, ",") {
		switch s = strings.TrimSpace(s); s {
		case "":
		case "hook", "serve", "large", "bench":
			r.only[s] = true
		default:
			fmt.Fprintf(stderr, "report: -only %q: want hook, serve, large or bench\n", s)
			return 2
		}
	}
	if r.short {
		r.runs, r.hookRuns, r.loadFor, r.conns, r.files, r.benchtime = 1, 2, 300*time.Millisecond, 20, 500, "1x"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := r.run(ctx, stdout); err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 1
	}
	return 0
}

// run builds everything, measures every row and prints the table.
func (r *runner) run(ctx context.Context, w io.Writer) error {
	mod, err := exec.Command(r.goCmd, "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(mod)) == "" || strings.TrimSpace(string(mod)) == os.DevNull {
		return fmt.Errorf("run inside the paige module: go env GOMOD: %v", err)
	}
	if r.root == "" {
		r.root = filepath.Dir(strings.TrimSpace(string(mod)))
	}
	if r.root, err = filepath.Abs(r.root); err != nil {
		return err
	}
	if r.tmp, err = os.MkdirTemp("", "paige-bench-*"); err != nil {
		return err
	}
	defer os.RemoveAll(r.tmp)
	start := time.Now()
	if err := r.build(ctx); err != nil {
		return err
	}
	steps := []struct {
		key, name string
		fn        func(context.Context, *figures) error
	}{
		{"hook", "the plugin's SessionStart hook, paige-hook and paige hook session-start vs hello-world", r.stepHook},
		{"serve", "paige serve: health, RSS, MCP, WebSocket", r.stepServe},
		{"large", fmt.Sprintf("start → /health on %d files", r.files), r.stepLarge},
		{"bench", "Go benchmarks", r.stepBench},
	}
	f := newFigures()
	for _, s := range steps {
		if len(r.only) > 0 && !r.only[s.key] {
			continue
		}
		fmt.Fprintf(r.log, "== %s (load %.2f)\n", s.name, loadNow())
		if err := s.fn(ctx, &f); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	f.print(w, r)
	fmt.Fprintf(r.log, "== done in %v\n", time.Since(start).Round(time.Second))
	return nil
}

// build compiles paige and paige-hook as `make build` does and a
// hello-world Go binary the same way.
func (r *runner) build(ctx context.Context) error {
	fmt.Fprintln(r.log, "== build")
	helloDir := filepath.Join(r.tmp, "hello")
	if err := os.MkdirAll(helloDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(helloDir, "main.go"),
		[]byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(helloDir, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644); err != nil {
		return err
	}
	r.paige, r.hello = filepath.Join(r.tmp, "paige"), filepath.Join(r.tmp, "hello-world")
	if _, err := os.Stat(filepath.Join(r.root, "cmd", "paige-hook")); err == nil { // older trees have none
		r.paigeHook = filepath.Join(r.tmp, "paige-hook")
	}
	for _, b := range []struct{ dir, out, pkg string }{
		{r.root, r.paige, "./cmd/paige"},
		{helloDir, r.hello, "."},
		{r.root, r.paigeHook, "./cmd/paige-hook"},
	} {
		if b.out == "" {
			continue
		}
		args := []string{"build", "-trimpath", "-ldflags", "-s -w", "-o", b.out, b.pkg}
		if r.short { // share the build cache of go run and go test; figures do not matter
			args = []string{"build", "-o", b.out, b.pkg}
		}
		cmd := exec.CommandContext(ctx, r.goCmd, args...)
		cmd.Dir = b.dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %w\n%s", b.pkg, err, out)
		}
	}
	return nil
}
