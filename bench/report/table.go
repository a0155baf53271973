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

// procRow is the row of a hook process h measured against the hello-world w.
func procRow(path string, h, w *procStats) row {
	return row{path,
		fmt.Sprintf("wall %s = %s hello-world (%s); CPU %s = %s hello-world (%s); max RSS %s (hello-world %s)",
			h.wall.format(" ms"), ratio(h.wall.med(), w.wall.med()), w.wall.format(" ms"),
			h.cpu.format(" ms"), ratio(h.cpu.med(), w.cpu.med()), w.cpu.format(" ms"),
			h.rss.format(" MiB"), w.rss.format(" MiB")),
		loadOf(&h.wall), "≤ 2× the hello-world Go binary, ≤ 12 MiB"}
}

// row is one line of the table.
type row struct{ path, now, load, target string }

// rows builds the table's lines from f.
func (f *figures) rows() []row {
	b := func(k string) *series { return f.bench[k] }
	ms := func(k string) *series { return scaled(b(k), 1e-6) }
	return []row{
		procRow("`paige-hook session-start` (what the plugin runs), whole process", f.smallHook, f.hello),
		procRow("`paige hook session-start`, whole process", f.hook, f.hello),
		{"MCP `paige_get_buffer` (2.6 KB buffer), server CPU per call",
			fmt.Sprintf("sequential %s; 16 clients %s (the net/http floor, bench/mcpfloor: %s; %s)", f.mcpSeqCPU.format(" µs"), f.mcp16CPU.format(" µs"),
				f.floorSeqCPU.format(" µs"), f.floor16CPU.format(" µs")),
			loadOf(&f.mcpSeqCPU, &f.mcp16CPU), "≤ 100 µs"},
		{"MCP, 16 clients (bench/mcpload): back to back (closed loop), and at the target rate",
			fmt.Sprintf("back to back %s calls/s, p99 %s; at %s calls/s (open loop): %s calls/s achieved, p99 %s",
				f.mcp16Rate.String(), f.mcp16P99.format(" ms"), num(targetRate), f.openRate.String(), f.openP99.format(" ms")),
			loadOf(&f.mcp16Rate), "≥ 10,000 calls/s, p99 ≤ 5 ms"},
		{"WS `buffer:update` (2.6 KB), server CPU per message (bench/wsload)",
			fmt.Sprintf("%s (%s msg/s, one client)", f.wsCPU.format(" µs"), f.wsRate.String()),
			loadOf(&f.wsCPU), "≤ 10 µs (≥ 100 k msg/s, one client)"},
		{"server RSS idle / 16 MCP sessions / 500 WS clients",
			fmt.Sprintf("%s / %s / %s", f.rssIdle.format(" MiB"), f.rss16.format(" MiB"), f.rss500.format(" MiB")),
			loadOf(&f.rssIdle, &f.rss16, &f.rss500), "≤ 25 / ≤ 40 / ≤ 50 MiB"},
		{"start → `/health`, generated large project vs small",
			fmt.Sprintf("first start (new DATA_DIR) %s vs %s (server CPU by then %s vs %s); restart %s vs %s; RSS %s vs %s (%s MiB); once idle: CPU %s, RSS %s (%s MiB over the small project idle)",
				f.readyLarge.format(" ms"), f.readySmall.format(" ms"), f.cpuLarge.format(" ms"),
				f.cpuSmall.format(" ms"), f.restartLarge.format(" ms"), f.restartSmall.format(" ms"),
				f.rssLarge.format(" MiB"), f.rssSmall.format(" MiB"),
				diff(&f.rssLarge, &f.rssSmall), f.cpuLargeSettled.format(" ms"),
				f.rssLargeSettled.format(" MiB"), diff(&f.rssLargeSettled, &f.rssIdle)),
			loadOf(&f.readyLarge, &f.readySmall, &f.restartLarge, &f.restartSmall), "≤ 50 ms whatever the project size; ≤ +10 MiB per 100 k files"},
		{"validate the 1,600-entry seed from bytes (`ValidateJSON`)",
			fmt.Sprintf("CPU %s/op = %s `Validate` (CPU %s/op); wall %s/op; %s allocs/op",
				ms("BenchmarkValidateJSONLarge cpu-ns/op").format(" ms"),
				ratio(b("BenchmarkValidateJSONLarge cpu-ns/op").medOr0(), b("BenchmarkValidateLarge cpu-ns/op").medOr0()),
				ms("BenchmarkValidateLarge cpu-ns/op").format(" ms"),
				ms("BenchmarkValidateJSONLarge ns/op").format(" ms"), orNA(b("BenchmarkValidateJSONLarge allocs/op"))),
			loadOf(b("BenchmarkValidateJSONLarge ns/op")), "≤ 1 ms"},
		{"learn, heuristic extraction of a 3 MB transcript (whole pipeline, one core: GOMAXPROCS=1)",
			fmt.Sprintf("%s MB per CPU-second (%s MB/s wall, %s ms/op); its store on tmpfs: %s MB per CPU-second", orNA(b("BenchmarkHeuristicExtract3MB MB/cpu-s")),
				orNA(b("BenchmarkHeuristicExtract3MB MB/s")), ms("BenchmarkHeuristicExtract3MB ns/op").String(),
				orNA(b("tmpfs BenchmarkHeuristicExtract3MB MB/cpu-s"))),
			loadOf(b("BenchmarkHeuristicExtract3MB MB/s")), "≥ 400 MB/s per CPU-second"},
		{"embedded memory query, 100 k memories",
			fmt.Sprintf("query CPU %s/op (wall %s/op); dense 256-dim scan alone CPU %s/op (wall %s/op)",
				ms("BenchmarkQuery100k/all cpu-ns/op").format(" ms"), ms("BenchmarkQuery100k/all ns/op").format(" ms"),
				ms("BenchmarkSearch100k cpu-ns/op").format(" ms"), ms("BenchmarkSearch100k ns/op").format(" ms")),
			loadOf(b("BenchmarkQuery100k/all ns/op")), "≤ 2 ms"},
		{"`dashboard:state`, 1 k sessions / 100 k actions",
			fmt.Sprintf("all %s/op; 7d %s/op", ms("BenchmarkDashboardState/all ns/op").format(" ms"),
				ms("BenchmarkDashboardState/7d ns/op").format(" ms")),
			loadOf(b("BenchmarkDashboardState/all ns/op")), "≤ 10 ms; no `gh` run per request when it is missing or slow"},
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
	fmt.Fprintf(w, "\nIssue 15 table for %s, measured now: median (min–max); load = median 1-minute load average during the row's runs.\n%s; large project %d files.\n\n", r.root, mode, r.files)
	fmt.Fprintln(w, "| path | now | load | target |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, x := range f.rows() {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", x.path, x.now, x.load, strings.ReplaceAll(x.target, "|", "\\|"))
	}
}
