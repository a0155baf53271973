package main

import "testing"

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestSeriesFormat(t *testing.T) {
	var s series
	if got := s.format(" ms"); got != "n/a" {
		t.Errorf("empty: got %q", got)
	}
	s.add(12.34, 1)
	if got := s.format(" ms"); got != "12.3 ms" {
		t.Errorf("one run: got %q", got)
	}
	s.add(9.5, 3)
	s.add(1500, 2)
	if got, want := s.format(" ms"), "12.3 ms (9.50–1,500 ms)"; got != want {
		t.Errorf("three runs: got %q, want %q", got, want)
	}
	if got := s.load(); got != 2 {
		t.Errorf("load: got %v, want 2", got)
	}
	if got := ratio(10, 4); got != "2.5×" {
		t.Errorf("ratio: got %q", got)
	}
	if got := ratio(10, 0); got != "n/a" {
		t.Errorf("ratio by 0: got %q", got)
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[string]string{"1": "1", "1000": "1,000", "-1234567": "-1,234,567", "100": "100"} {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%q) = %q, want %q", in, got, want)
		}
	}
}
