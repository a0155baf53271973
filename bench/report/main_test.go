package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRealMainBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-runs", "0"}, {"-only", "hook,nope"}, {"-bogus"}} {
		var stderr bytes.Buffer
		if code := realMain(args, func(string) string { return "" }, &bytes.Buffer{}, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}

func TestRowsWithNothingMeasured(t *testing.T) {
	f := figures{smallHook: &procStats{}, hook: &procStats{}, hello: &procStats{}}
	var out bytes.Buffer
	f.print(&out, &runner{short: true, files: 10})
	if got := strings.Count(out.String(), "\n| "); got != 10 { // header + 9 rows
		t.Errorf("%d table lines, want 10:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "n/a") {
		t.Error("unmeasured figures not shown as n/a")
	}
}
