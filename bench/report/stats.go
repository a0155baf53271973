package main

import (
	"fmt"
	"slices"
	"strings"
)

// series is one measured quantity over several runs, with the machine's
// 1-minute load average at each run.
type series struct {
	vals  []float64
	loads []float64
}

// add records one run's value v measured at load average load.
func (s *series) add(v, load float64) {
	s.vals = append(s.vals, v)
	s.loads = append(s.loads, load)
}

// median returns the median of vs (the mean of the middle two for an even
// count), or 0 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	c := slices.Clone(vs)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// med is the series' median.
func (s *series) med() float64 { return median(s.vals) }

// load is the median load average over the series' runs.
func (s *series) load() float64 { return median(s.loads) }

// String formats the series as "median (min–max)" with unit and a number
// format suited to the median's size; "n/a" when nothing was measured.
func (s *series) String() string { return s.format("") }

// format is String with a unit after each figure.
func (s *series) format(unit string) string {
	if len(s.vals) == 0 {
		return "n/a"
	}
	f := func(v float64) string { return num(v) + unit }
	if len(s.vals) == 1 {
		return f(s.vals[0])
	}
	return fmt.Sprintf("%s (%s–%s)", f(s.med()), num(slices.Min(s.vals)), f(slices.Max(s.vals)))
}

// num formats v with 3 significant figures, thousands separated.
func num(v float64) string {
	switch a := max(v, -v); {
	case a >= 1000:
		return thousands(fmt.Sprintf("%.0f", v))
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// thousands puts commas between groups of three digits of an integer.
func thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// ratio formats a/b as "2.1×", or "n/a" when either is missing.
func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f×", a/b)
}
