package proc

import (
	"testing"
	"time"
)

// TestParse feeds ParseStat (/proc/<pid>/stat: user+system CPU) and
// ParseStatusRSS (/proc/<pid>/status: VmRSS in bytes) good and broken text.
func TestParse(t *testing.T) {
	stat := func(s string) (int64, bool) { d, ok := ParseStat(s); return int64(d), ok }
	tests := []struct {
		name  string
		parse func(string) (int64, bool)
		in    string
		want  int64
		ok    bool
	}{
		{"ParseStat", stat, "42 (paige) S 1 2 3 4 5 6 7 8 9 10 150 25 0 0", int64(1750 * time.Millisecond), true},
		{"ParseStat", stat, "42 (a b) c)) S 1 2 3 4 5 6 7 8 9 10 1 2 0 0", int64(30 * time.Millisecond), true},
		{"ParseStat", stat, "42 (paige) S 1 2", 0, false},
		{"ParseStat", stat, "garbage", 0, false},
		{"ParseStat", stat, "42 (paige) S 1 2 3 4 5 6 7 8 9 10 x 2 0 0", 0, false},
		{"ParseStat", stat, "4242 (pa ige) x) S 1 2 3 4 5 6 7 8 9 10 250 130 0 0 20 0 8 0 100", int64(3800 * time.Millisecond), true},
		{"ParseStat", stat, "4242 (paige)", 0, false},
		{"ParseStat", stat, "", 0, false},
		{"ParseStatusRSS", ParseStatusRSS, "Name:\tpaige\nVmPeak:\t 100 kB\nVmRSS:\t   25600 kB\n", 25600 << 10, true},
		{"ParseStatusRSS", ParseStatusRSS, "Name:\tpaige\n", 0, false},
		{"ParseStatusRSS", ParseStatusRSS, "VmRSS:\t12 MB\n", 0, false},
		{"ParseStatusRSS", ParseStatusRSS, "VmRSS:\t-1 kB\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := tt.parse(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s(%q) = %v, %v; want %v, %v", tt.name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
