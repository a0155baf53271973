package proc

import (
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"42 (paige) S 1 2 3 4 5 6 7 8 9 10 150 25 0 0", 1750 * time.Millisecond, true},
		{"42 (a b) c)) S 1 2 3 4 5 6 7 8 9 10 1 2 0 0", 30 * time.Millisecond, true},
		{"42 (paige) S 1 2", 0, false},
		{"garbage", 0, false},
		{"42 (paige) S 1 2 3 4 5 6 7 8 9 10 x 2 0 0", 0, false},
		{"4242 (pa ige) x) S 1 2 3 4 5 6 7 8 9 10 250 130 0 0 20 0 8 0 100", 3800 * time.Millisecond, true},
		{"4242 (paige)", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseStat(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseStat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseStatusRSS(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tpaige\nVmPeak:\t 100 kB\nVmRSS:\t   25600 kB\n", 25600 << 10, true},
		{"Name:\tpaige\n", 0, false},
		{"VmRSS:\t12 MB\n", 0, false},
		{"VmRSS:\t-1 kB\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseStatusRSS(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseStatusRSS(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
