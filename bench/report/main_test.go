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
	f := newFigures()
	var out bytes.Buffer
	f.print(&out, &runner{short: true, files: 10})
	if got := strings.Count(out.String(), "\n| "); got != 11 { // header + 10 rows
		t.Errorf("%d table lines, want 11:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "n/a") {
		t.Error("unmeasured figures not shown as n/a")
	}
}

// The hook step runs what the plugin's hooks.json says at SessionStart,
// nothing else: this repository's plugin runs one command, paige-hook's.
func TestPluginSessionStart(t *testing.T) {
	script, err := pluginSessionStart("../..")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(script, "\n") != 0 || !strings.Contains(script, "paige-hook session-start --record-session") {
		t.Errorf("plugin SessionStart script %q, want the one paige-hook command", script)
	}
	if script, err := pluginSessionStart(t.TempDir()); err != nil || script != "" {
		t.Errorf("tree without a plugin: %q, %v; want nothing", script, err)
	}
}
