package main

import (
	"fmt"
	"io"
	"strings"
)

// scaled returns s with every value multiplied by k (units conversion).
func scaled(s *series, k float64) *series {
	if s == nil {
		return &series{}
	}
	out := &series{loads: s.loads}
	for _, v := range s.vals {
		out.vals = append(out.vals, v*k)
	}
	return out
}

// loadOf is the median load over several series' runs, formatted.
func loadOf(ss ...*series) string {
	var all []float64
	for _, s := range ss {
		if s != nil {
			all = append(all, s.loads...)
		}
	}
	if len(all) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", median(all))
}

// procRow is the row of a hook process h measured against the
// hello-world w, with its budget.
func procRow(path string, h, w *procStats, budget string) row {
	return row{path,
		fmt.Sprintf("CPU %s = %s hello-world (%s); max RSS %s (hello-world %s); wall %s = %s hello-world (%s)",
			h.cpu.format(" ms"), ratio(h.cpu.med(), w.cpu.med()), w.cpu.format(" ms"),
			h.rss.format(" MiB"), w.rss.format(" MiB"),
			h.wall.format(" ms"), ratio(h.wall.med(), w.wall.med()), w.wall.format(" ms")),
		loadOf(&h.cpu), budget}
}

// row is one line of the table.
type row struct{ path, now, load, target string }

// rows builds the table's lines from f.
func (f *figures) rows() []row {
	b := func(k string) *series { return f.bench[k] }
	ms := func(k string) *series { return scaled(b(k), 1e-6) }
	return []row{
		procRow("SessionStart hook as the plugin runs it (hooks.json's SessionStart commands through /bin/sh, against a hello-world run the same way), whole process",
			f.plugin, f.helloShell, "≤ 2.5× a hello-world Go binary's CPU, ≤ 12 MiB"),
		procRow("`paige-hook session-start --record-session` run directly, against the hello-world run directly", f.smallHook, f.hello, "(the same budget, without the shell)"),
		procRow("`paige hook session-start --record-session` run directly (the plugin's fallback without paige-hook)", f.hook, f.hello, "(no budget)"),
		{"MCP `paige_get_buffer` (2.6 KB buffer, MCP Go SDK client), server CPU per call",
			fmt.Sprintf("1 client %s; 16 clients %s (%s calls/s back to back)", f.mcpSeqCPU.format(" µs"), f.mcp16CPU.format(" µs"), f.mcp16Rate.String()),
			loadOf(&f.mcpSeqCPU, &f.mcp16CPU), "≤ 500 µs"},
		{"WS `buffer:update` (2.6 KB, coder/websocket client, coaching session on), server CPU per message",
			fmt.Sprintf("%s (%s msg/s, one client)", f.wsCPU.format(" µs"), f.wsRate.String()),
			loadOf(&f.wsCPU), "≤ 50 µs"},
		{"start → `/health`, generated large project vs small",
			fmt.Sprintf("first start (new DATA_DIR) %s vs %s = %s small (server CPU by then %s vs %s); restart %s vs %s = %s small; once idle: CPU %s",
				f.readyLarge.format(" ms"), f.readySmall.format(" ms"), ratio(f.readyLarge.medOr0(), f.readySmall.medOr0()),
				f.cpuLarge.format(" ms"), f.cpuSmall.format(" ms"),
				f.restartLarge.format(" ms"), f.restartSmall.format(" ms"), ratio(f.restartLarge.medOr0(), f.restartSmall.medOr0()),
				f.cpuLargeSettled.format(" ms")),
			loadOf(&f.readyLarge, &f.readySmall, &f.restartLarge, &f.restartSmall), "≤ 1.5× a small project"},
		{"learn, heuristic extraction of a 3 MB transcript (whole pipeline and process, GOMAXPROCS=1)",
			fmt.Sprintf("%s MB per CPU-second (%s MB/s wall, %s ms/op); its store on tmpfs: %s MB per CPU-second", orNA(b("BenchmarkHeuristicExtract3MB MB/cpu-s")),
				orNA(b("BenchmarkHeuristicExtract3MB MB/s")), ms("BenchmarkHeuristicExtract3MB ns/op").String(),
				orNA(b("tmpfs BenchmarkHeuristicExtract3MB MB/cpu-s"))),
			loadOf(b("BenchmarkHeuristicExtract3MB MB/s")), "≥ 100 MB per CPU-second"},
		{"embedded memory query, 100 k memories",
			fmt.Sprintf("query CPU %s/op (wall %s/op); dense 256-dim scan alone CPU %s/op (wall %s/op)",
				ms("BenchmarkQuery100k/all cpu-ns/op").format(" ms"), ms("BenchmarkQuery100k/all ns/op").format(" ms"),
				ms("BenchmarkSearch100k cpu-ns/op").format(" ms"), ms("BenchmarkSearch100k ns/op").format(" ms")),
			loadOf(b("BenchmarkQuery100k/all ns/op")), "≤ 5 ms"},
		{"`dashboard:state`, 1 k sessions / 100 k actions",
			fmt.Sprintf("all %s/op; 7d %s/op", ms("BenchmarkDashboardState/all ns/op").format(" ms"),
				ms("BenchmarkDashboardState/7d ns/op").format(" ms")),
			loadOf(b("BenchmarkDashboardState/all ns/op")), "≤ 10 ms"},
		{"server RSS idle / 16 MCP sessions / 500 WS clients; large project at start / once idle",
			fmt.Sprintf("%s / %s / %s; %s (%s MiB over the small project) / %s",
				f.rssIdle.format(" MiB"), f.rss16.format(" MiB"), f.rss500.format(" MiB"),
				f.rssLarge.format(" MiB"), diff(&f.rssLarge, &f.rssSmall), f.rssLargeSettled.format(" MiB")),
			loadOf(&f.rssIdle, &f.rss16, &f.rss500), "(no budget)"},
	}
}

// diff formats the difference of two series' medians, "n/a" when either
// is empty.
func diff(a, b *series) string {
	if len(a.vals) == 0 || len(b.vals) == 0 {
		return "n/a"
	}
	d := a.med() - b.med()
	if d < 0 {
		return "−" + num(-d)
	}
	return "+" + num(d)
}

// medOr0 is the median, 0 for a nil series.
func (s *series) medOr0() float64 {
	if s == nil {
		return 0
	}
	return s.med()
}

// orNA formats a possibly missing series.
func orNA(s *series) string {
	if s == nil {
		return "n/a"
	}
	return s.String()
}

// print writes the Markdown table.
func (f *figures) print(w io.Writer, r *runner) {
	mode := fmt.Sprintf("%d runs per server scenario, %d hook runs, Go benchmarks -count %d -benchtime %s",
		r.runs, r.hookRuns, r.runs, r.benchtime)
	if r.short {
		mode = "SHORT MODE (tools checked, figures meaningless)"
	}
	fmt.Fprintf(w, "\nIssue 24 budgets for %s, measured now: median (min–max); load = median 1-minute load average during the row's runs.\n%s; large project %d files.\n\n", r.root, mode, r.files)
	fmt.Fprintln(w, "| path | now | load | budget |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, x := range f.rows() {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", x.path, x.now, x.load, strings.ReplaceAll(x.target, "|", "\\|"))
	}
}
