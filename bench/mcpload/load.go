package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/paige-dev/paige/bench/internal/proc"
	"github.com/paige-dev/paige/internal/testenv"
)

// config is one load run.
type config struct {
	URL      string
	Mode     string // "open" or "closed"
	Rate     int    // open loop: calls/s from all workers together
	Duration time.Duration
	Workers  int
	Tool     string
	Path     string
	SrvPID   int    // when > 0, the server's process id, to report its CPU per call
	Buffer   string // when not empty, seeded as Path's editor buffer (seedBuffer) before the run
	Session  bool   // start a coaching session first (startSession): every call then logs mcp_tool_call
	// Bound is how long after the start the open loop may still send calls
	// due earlier; the rest count as Missed. If zero, 2·Duration + 5 s.
	Bound time.Duration
}

// result is what a run measured.
type result struct {
	Calls    int             // calls answered without error
	Errors   int             // calls that failed
	Missed   int             // open loop: calls due but never sent (the run hit its bound)
	Late     int             // open loop: calls sent more than a whole round of workers late
	Elapsed  time.Duration   // from the first call's schedule to the last answer
	Lat      []time.Duration // latencies of the answered calls, sorted
	FirstErr error           // the first call's failure, if any
	CPU      time.Duration   // this process's CPU time during the run (0 where unknown)
	SrvCPU   time.Duration   // the server process's CPU time during the run (0 where unknown)
}

// due is when call n of an open loop at rate calls/s is scheduled,
// relative to the start: call n is worker n%workers's (n/workers)-th.
func due(n, rate int) time.Duration {
	return time.Duration(int64(n) * int64(time.Second) / int64(rate))
}

// calls is how many calls an open loop at rate makes in d.
func calls(rate int, d time.Duration) int {
	return int(int64(rate) * int64(d) / int64(time.Second))
}

// percentile returns the p-quantile (0..1) of sorted latencies, nearest rank below.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*p)]
}

// worker is one client: its session, the raw caller making its measured
// calls, and what it measured.
type worker struct {
	s      *session
	c      *rawCaller
	lat    []time.Duration
	errs   int
	missed int
	late   int
	err    error
}

// run connects cfg.Workers sessions and drives them in cfg.Mode for
// cfg.Duration. The open loop stops sending at twice the duration plus
// 5 s even when behind; calls not sent by then are Missed.
func run(ctx context.Context, cfg config) (*result, error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * cfg.Workers, DisableCompression: true},
		Timeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	ws := make([]*worker, cfg.Workers)
	for i := range ws {
		s, err := connect(ctx, hc, cfg.URL, cfg.Tool, map[string]string{"path": cfg.Path})
		if err != nil {
			return nil, fmt.Errorf("session %d: %w", i, err)
		}
		defer s.close(context.WithoutCancel(ctx))
		ws[i] = &worker{s: s}
	}
	if cfg.Session {
		c, err := startSession(ctx, cfg.URL)
		if err != nil {
			return nil, err
		}
		defer c.CloseNow()
	}
	if cfg.Buffer != "" {
		for _, w := range ws {
			w.s.wantStructured, w.s.wantContent = true, cfg.Buffer
		}
		c, err := seedBuffer(ctx, cfg.URL, cfg.Path, cfg.Buffer, ws[0].s)
		if err != nil {
			return nil, err
		}
		defer c.CloseNow()
	}
	hc.CloseIdleConnections() // the measured calls use their own connections
	for i, w := range ws {
		c, err := newRawCaller(w.s, cfg.URL)
		if err != nil {
			return nil, err
		}
		defer c.close()
		w.c = c
		// Warm-up, outside the measurement: the connection, the first
		// answer checked in full. Fail fast.
		if err := c.callTool(ctx); err != nil {
			return nil, fmt.Errorf("first call of session %d: %w", i, err)
		}
	}
	cpu0 := testenv.CPUTime()
	srv0, srvKnown := srvCPU(cfg.SrvPID)
	start := time.Now()
	var wg sync.WaitGroup
	if cfg.Mode == "closed" {
		stop := start.Add(cfg.Duration)
		for _, w := range ws {
			wg.Go(func() { w.closedLoop(ctx, stop) })
		}
	} else {
		limit := cfg.Bound
		if limit <= 0 {
			limit = 2*cfg.Duration + 5*time.Second
		}
		bound, cancel := context.WithDeadline(ctx, start.Add(limit))
		defer cancel()
		total := calls(cfg.Rate, cfg.Duration)
		for i, w := range ws {
			wg.Go(func() { w.openLoop(bound, start, i, len(ws), cfg.Rate, total) })
		}
	}
	wg.Wait()
	res := &result{Elapsed: time.Since(start), CPU: testenv.CPUTime() - cpu0}
	if srv, ok := srvCPU(cfg.SrvPID); ok && srvKnown {
		res.SrvCPU = srv - srv0
	}
	for _, w := range ws {
		res.Lat = append(res.Lat, w.lat...)
		res.Errors += w.errs
		res.Missed += w.missed
		res.Late += w.late
		if res.FirstErr == nil {
			res.FirstErr = w.err
		}
	}
	res.Calls = len(res.Lat)
	slices.Sort(res.Lat)
	return res, ctx.Err()
}

// record notes one call's outcome.
func (w *worker) record(err error, lat time.Duration) {
	if err != nil {
		w.errs++
		if w.err == nil {
			w.err = err
		}
		return
	}
	w.lat = append(w.lat, lat)
}

// closedLoop calls back to back until stop, latency from each send.
func (w *worker) closedLoop(ctx context.Context, stop time.Time) {
	for ctx.Err() == nil && time.Now().Before(stop) {
		t0 := time.Now()
		err := w.c.callTool(ctx)
		w.record(err, time.Since(t0))
	}
}

// openLoop makes calls i, i+workers, i+2·workers… below total, each at its
// due time. A call sent late (the worker was still waiting for an earlier
// answer) is measured from its due time, so backlog counts against it; a
// call sent on time is measured from its send, so the timer's oversleep is
// not counted as the server's (the corrected latency of wrk2).
func (w *worker) openLoop(ctx context.Context, start time.Time, i, workers, rate, total int) {
	w.lat = make([]time.Duration, 0, total/workers+1)
	for n := i; n < total; n += workers {
		if ctx.Err() != nil {
			w.missed += (total - n + workers - 1) / workers
			return
		}
		from := start.Add(due(n, rate))
		if wait := time.Until(from); wait > 0 {
			time.Sleep(wait)
			from = time.Now()
		} else if -wait > due(workers, rate) {
			w.late++
		}
		err := w.c.callTool(ctx)
		if err != nil && ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			w.missed++ // cut off by the run's bound, not failed by the server
			continue
		}
		w.record(err, time.Since(from))
	}
}

// srvCPU is the server's CPU time so far, and false when pid is not set
// or its CPU time is unknown. A fresh server's CPU time may still be 0.
func srvCPU(pid int) (time.Duration, bool) {
	if pid <= 0 {
		return 0, false
	}
	return proc.CPU(pid)
}
